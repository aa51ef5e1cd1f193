/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts {@link PoolWorker} JVMs for the process tests and kills what is left afterwards. */
final class WorkerProcesses implements AutoCloseable {
  private final List<Process> started = new ArrayList<>();

  /** Starts a worker; {@code jvmOptions} go before the class name. */
  Process start(List<String> jvmOptions, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(PoolWorker.class.getName());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    started.add(p);
    return p;
  }

  Process start(String... args) throws IOException {
    return start(List.of(), args);
  }

  private static final java.util.Map<Process, BufferedReader> READERS =
      new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * Reads the next line the worker prints; blocks until it does (the event itself). One reader per
   * process, so nothing it buffered is lost between calls.
   */
  static String readLine(Process p) throws IOException {
    return READERS
        .computeIfAbsent(
            p,
            k ->
                new BufferedReader(
                    new InputStreamReader(k.getInputStream(), StandardCharsets.UTF_8)))
        .readLine();
  }

  /** Sends a signal by name, such as {@code CONT}. */
  static void signal(Process p, String name) throws Exception {
    int rc = new ProcessBuilder("kill", "-" + name, Long.toString(p.pid())).start().waitFor();
    if (rc != 0) {
      throw new IllegalStateException("kill -" + name + " " + p.pid() + " failed: " + rc);
    }
  }

  @Override
  public void close() {
    started.forEach(Process::destroyForcibly);
  }
}
