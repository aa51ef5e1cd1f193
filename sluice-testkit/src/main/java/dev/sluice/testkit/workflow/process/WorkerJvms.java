/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Starts worker JVMs on the test's class path for the process tests and talks to them over their
 * standard streams; {@link #close()} kills (SIGKILL) whatever is still running. Reads block until
 * the worker prints (the event itself), under the test's own timeout.
 *
 * <p>Not thread-safe: one test thread drives it.
 */
public final class WorkerJvms implements AutoCloseable {
  private final List<Process> started = new ArrayList<>();
  private final Map<Process, BufferedReader> outputs = new HashMap<>();

  /**
   * Starts a JVM running {@code main}: {@code jvmOptions} go before the class name, then {@code
   * args}. Its standard error goes to the test's.
   *
   * @param main the class whose {@code main} runs
   * @param jvmOptions options of the JVM
   * @param args the program's arguments
   * @return the process
   * @throws IOException if it cannot be started
   */
  public Process start(Class<?> main, List<String> jvmOptions, List<String> args)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(main.getName());
    cmd.addAll(args);
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    started.add(p);
    outputs.put(
        p, new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
    return p;
  }

  /**
   * Lets a {@link ChainWorker} that printed {@code ready} start its runtime.
   *
   * @param p the worker
   * @throws IOException if its stdin is closed
   */
  public static void go(Process p) throws IOException {
    p.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().flush();
  }

  /**
   * Returns the worker's next line other than a {@code finished} progress line.
   *
   * @param p the worker
   * @return the line, or null at the end of its output
   * @throws IOException if its output cannot be read
   */
  public String lineAfterProgress(Process p) throws IOException {
    String l = line(p);
    while (l != null && l.startsWith("finished ")) {
      l = line(p);
    }
    return l;
  }

  /**
   * Returns the worker's next line of output; blocks until it prints one.
   *
   * @param p the worker
   * @return the line, or null at the end of its output
   * @throws IOException if its output cannot be read
   */
  public String line(Process p) throws IOException {
    return outputs.get(p).readLine();
  }

  /** Kills every JVM started that still runs. */
  @Override
  public void close() {
    started.forEach(Process::destroyForcibly);
  }
}
