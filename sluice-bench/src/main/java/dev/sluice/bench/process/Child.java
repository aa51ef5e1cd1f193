/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The harness's side of one worker JVM: commands go to its stdin, replies come back from its stdout
 * through a reader thread, and its stderr goes to a log file quoted in errors. Closing it kills the
 * process if it is still alive. Used by one harness thread at a time.
 */
final class Child implements AutoCloseable {
  private static final String END = "\u0000end of output";

  private final String name;
  private final Process process;
  private final Writer stdin;
  private final Path log;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

  Child(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    Thread reader = new Thread(this::readStdout, "stdout-" + name);
    reader.setDaemon(true);
    reader.start();
  }

  private void readStdout() {
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = out.readLine()) != null; ) {
        lines.add(line);
      }
    } catch (IOException e) {
      // The process is gone; END below tells the waiting side.
    }
    lines.add(END);
  }

  /** Returns the worker's name, as used in its log file. */
  String name() {
    return name;
  }

  /**
   * Sends one command line.
   *
   * @param command the command, without a line break
   * @throws IOException if the process no longer reads
   */
  void send(String command) throws IOException {
    stdin.write(command);
    stdin.write('\n');
    stdin.flush();
  }

  /**
   * Waits for the next reply and checks its first word.
   *
   * @param word the expected first word
   * @param timeout how long to wait
   * @return the rest of the line after the word and a space, or empty
   * @throws IllegalStateException if another line, the end of output or the timeout comes first
   * @throws InterruptedException if interrupted
   */
  String expect(String word, Duration timeout) throws InterruptedException {
    String line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (line == null) {
      throw failure("no '" + word + "' within " + timeout.toSeconds() + " s");
    }
    if (line.equals(END)) {
      throw failure("ended while the harness waited for '" + word + "'");
    }
    if (line.equals(word)) {
      return "";
    }
    if (!line.startsWith(word + " ")) {
      throw failure("replied '" + line + "' where '" + word + "' was expected");
    }
    return line.substring(word.length() + 1);
  }

  /**
   * Waits for a reply {@code WORD NUMBER ...} and returns its numbers.
   *
   * @param word the expected first word
   * @param timeout how long to wait
   * @return the numbers after the word
   * @throws InterruptedException if interrupted
   */
  long[] expectNumbers(String word, Duration timeout) throws InterruptedException {
    String rest = expect(word, timeout);
    String[] parts = rest.split(" ");
    long[] numbers = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      numbers[i] = Long.parseLong(parts[i]);
    }
    return numbers;
  }

  /**
   * Returns a future completed with {@link System#nanoTime()} as soon as the JDK's reaper sees the
   * process end.
   */
  CompletableFuture<Long> exitNanos() {
    return process.onExit().thenApply(p -> System.nanoTime());
  }

  /** Sends SIGKILL ({@link Process#destroyForcibly()}); does not wait. */
  void kill() {
    process.destroyForcibly();
  }

  /**
   * Waits for the process to end, killing it after {@code timeout}.
   *
   * @param timeout how long it may take
   * @return its exit status
   * @throws InterruptedException if interrupted
   */
  int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      process.waitFor();
    }
    return process.exitValue();
  }

  /** Kills the process if it is still alive and waits up to 30 s for it to end. */
  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private IllegalStateException failure(String what) {
    String tail;
    try {
      List<String> err = Files.readAllLines(log);
      tail = String.join("\n", err.subList(Math.max(0, err.size() - 40), err.size()));
    } catch (IOException e) {
      tail = "(no log: " + e + ")";
    }
    return new IllegalStateException(
        "worker " + name + " (pid " + process.pid() + ") " + what + "; its stderr:\n" + tail);
  }
}
