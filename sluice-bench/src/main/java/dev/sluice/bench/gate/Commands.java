/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.gate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts and waits for the measured commands: stdin from {@code /dev/null}, stdout and stderr
 * appended to one log file per kind of command, which is quoted when a command fails.
 */
final class Commands {
  private static final Duration TIMEOUT = Duration.ofSeconds(120);

  private Commands() {}

  /**
   * Starts a command.
   *
   * @param argv the command
   * @param env variables to set on top of the harness's environment
   * @param log where its output goes
   * @return the running process
   * @throws IOException if it cannot be started
   */
  /** {@code bin/sluice --home HOME run --pool POOL -- COMMAND...}. */
  static List<String> sluiceRun(BenchOptions options, Path home, String pool, String... command) {
    List<String> argv = new java.util.ArrayList<>();
    argv.addAll(
        List.of(
            options.sluice().toString(), "--home", home.toString(), "run", "--pool", pool, "--"));
    argv.addAll(List.of(command));
    return argv;
  }

  static Process start(List<String> argv, Map<String, String> env, Path log) throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(argv)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .redirectErrorStream(true);
    builder.environment().putAll(env);
    return builder.start();
  }

  /**
   * Waits for a command to end and checks that it exited with status 0.
   *
   * @param process the command
   * @param what a name for errors
   * @param log its log file, quoted in errors
   * @throws IOException if it failed or did not end within two minutes (it is killed then)
   * @throws InterruptedException if interrupted
   */
  static void awaitSuccess(Process process, String what, Path log)
      throws IOException, InterruptedException {
    if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IOException(what + " did not end within " + TIMEOUT + "; see " + log);
    }
    if (process.exitValue() != 0) {
      throw new IOException(what + " exited " + process.exitValue() + "; " + tail(log));
    }
  }

  /**
   * Runs a command to its end and checks its status.
   *
   * @param argv the command
   * @param log where its output goes
   * @throws IOException if it cannot be started or fails
   * @throws InterruptedException if interrupted
   */
  static void run(List<String> argv, Path log) throws IOException, InterruptedException {
    awaitSuccess(start(argv, Map.of(), log), String.join(" ", argv), log);
  }

  private static String tail(Path log) throws IOException {
    String text = Files.readString(log, StandardCharsets.UTF_8);
    return "end of " + log + ":\n" + text.substring(Math.max(0, text.length() - 2000));
  }
}
