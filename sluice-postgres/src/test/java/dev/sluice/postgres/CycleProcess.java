/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link PgCycleWorker} JVM, driven one command a line, and what its tasks recorded.
 *
 * <p>Not thread-safe: one test thread drives it.
 */
final class CycleProcess implements AutoCloseable {
  /** A task as its worker recorded it; times in epoch microseconds. */
  record Task(int worker, long leaseId, long fencing, long start, long end) {}

  /** What a worker counted: tasks, transient failures, owner losses and OWNER_LOST events. */
  record Stats(int tasks, int transientFailures, int ownerLost, int ownerLostEvents) {}

  private final int index;
  private final Process process;
  private final BufferedReader out;
  private final PrintWriter in;
  private final Path file;

  private CycleProcess(int index, Process process, Path file) {
    this.index = index;
    this.process = process;
    this.file = file;
    this.out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
  }

  /** Starts worker {@code index} on {@code pool}; its tasks go to a file in {@code dir}. */
  static CycleProcess start(
      int index,
      TestDatabase db,
      String pool,
      int cap,
      int threads,
      Duration heartbeat,
      long workMicros,
      Path dir)
      throws IOException {
    Path file = dir.resolve("tasks-" + index);
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(PgCycleWorker.class.getName());
    cmd.addAll(
        List.of(
            TestDatabase.URL,
            db.schema(),
            pool,
            Integer.toString(cap),
            Integer.toString(threads),
            Long.toString(heartbeat.toMillis()),
            Long.toString(workMicros),
            file.toString()));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    return new CycleProcess(index, p, file);
  }

  long pid() {
    return process.pid();
  }

  /** Sends a command and returns the worker's one-line answer. */
  String ask(String command) throws IOException {
    in.println(command);
    String answer = out.readLine();
    if (answer == null) {
      throw new IOException("worker " + index + " ended without answering '" + command + "'");
    }
    return answer;
  }

  /** Stops the worker and returns what it counted; it must exit 0. */
  Stats stop() throws IOException, InterruptedException {
    String[] f = ask("stop").split(" ");
    if (!f[0].equals("STATS")) {
      throw new IOException("worker " + index + " answered " + String.join(" ", f));
    }
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IOException("worker " + index + " did not exit cleanly: " + process.isAlive());
    }
    return new Stats(
        Integer.parseInt(f[1]),
        Integer.parseInt(f[2]),
        Integer.parseInt(f[3]),
        Integer.parseInt(f[4]));
  }

  /** The tasks the worker recorded; after {@link #stop}. */
  List<Task> tasks() throws IOException {
    List<Task> tasks = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      String[] f = line.split(" ");
      tasks.add(
          new Task(
              index,
              Long.parseLong(f[0]),
              Long.parseLong(f[1]),
              Long.parseLong(f[2]),
              Long.parseLong(f[3])));
    }
    return tasks;
  }

  /** The most tasks that ran at once, by their own start and end times. */
  static int maxOverlap(List<Task> tasks) {
    List<long[]> edges = new ArrayList<>();
    for (Task t : tasks) {
      edges.add(new long[] {t.start(), 1});
      edges.add(new long[] {t.end(), -1});
    }
    // Ends before starts at the same microsecond: touching intervals do not overlap.
    edges.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
    int running = 0;
    int max = 0;
    for (long[] e : edges) {
      running += (int) e[1];
      max = Math.max(max, running);
    }
    return max;
  }

  /**
   * Kills the JVM (SIGKILL) if it still runs: SIGCONT first, in case a test left it stopped, and a
   * thread dump on stdout, since a worker that still runs at the end is one that hung.
   */
  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      Signals.send("CONT", process.pid());
      try {
        Process dump =
            new ProcessBuilder(
                    Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(process.pid()),
                    "Thread.print")
                .inheritIO()
                .start();
        dump.waitFor(30, TimeUnit.SECONDS);
      } catch (IOException e) {
        System.out.println("no thread dump of worker " + index + ": " + e);
      }
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
    }
  }
}
