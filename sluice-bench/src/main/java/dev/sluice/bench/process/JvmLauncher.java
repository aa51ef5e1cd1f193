/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts worker JVMs: the harness's own {@code java} ({@code java.home/bin/java}) with the shaded
 * benchmark jar as class path and no other JVM flags, except that SQLite's native library is
 * unpacked under the run directory ({@code -Dorg.sqlite.tmpdir}), so killed workers leave nothing
 * behind once the run directory is removed. Each worker's stderr goes to {@code logs/NAME.err}.
 *
 * @param java the java binary
 * @param jar the shaded jar
 * @param nativeDir where workers unpack SQLite's native library
 * @param logDir where workers' stderr goes
 */
record JvmLauncher(Path java, Path jar, Path nativeDir, Path logDir) {

  /**
   * Prepares a launcher whose workers keep their files under {@code runDir}.
   *
   * @param runDir the run's directory
   * @param jar the shaded jar
   * @return the launcher
   * @throws IOException if the directories cannot be made
   */
  static JvmLauncher create(Path runDir, Path jar) throws IOException {
    return new JvmLauncher(
        Path.of(System.getProperty("java.home"), "bin", "java"),
        jar,
        Files.createDirectories(runDir.resolve("native")),
        Files.createDirectories(runDir.resolve("logs")));
  }

  /**
   * Starts a worker.
   *
   * @param name a name unique in the run, for its log file
   * @param main the worker's main class
   * @param args its arguments
   * @return the running worker
   * @throws IOException if the process cannot be started
   */
  Child start(String name, Class<?> main, Object... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.add("-Dorg.sqlite.tmpdir=" + nativeDir);
    command.add("-cp");
    command.add(jar.toString());
    command.add(main.getName());
    for (Object arg : args) {
      command.add(String.valueOf(arg));
    }
    Path log = logDir.resolve(name + ".err");
    Process process =
        new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    return new Child(name, process, log);
  }
}
