/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real {@code sluice} command as separate JVMs (this module's runtime class path, the same
 * main class {@code bin/sluice} starts) against one home, and kills what is left afterwards.
 */
final class SluiceProcesses implements AutoCloseable {
  /** Generous: a JVM start on a loaded 2-core machine takes seconds, not minutes. */
  static final long TIMEOUT_SECONDS = 120;

  private final Path home;
  private final Map<String, String> env = new HashMap<>();
  private final List<Process> started = new ArrayList<>();

  SluiceProcesses(Path home) {
    this.home = home;
  }

  /** Sets (or with {@code null} removes) an environment variable of every later process. */
  SluiceProcesses env(String name, String value) {
    env.put(name, value);
    return this;
  }

  /** The command line: java, fast-start flags, class path, main class, --home, args. */
  List<String> command(String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(
        List.of(
            "-XX:TieredStopAtLevel=1",
            "-XX:CICompilerCount=1",
            "-XX:+UseSerialGC",
            "-Xshare:auto"));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Sluice.class.getName());
    cmd.add("--home");
    cmd.add(home.toString());
    cmd.addAll(List.of(args));
    return cmd;
  }

  /** Starts {@code sluice args}; stdout and stderr are pipes. */
  Process start(String... args) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command(args));
    env.forEach(
        (k, v) -> {
          if (v == null) {
            pb.environment().remove(k);
          } else {
            pb.environment().put(k, v);
          }
        });
    pb.environment().remove("SLUICE_HOME");
    if (!env.containsKey("SLUICE_AGENT_ID")) {
      pb.environment().remove("SLUICE_AGENT_ID");
    }
    Process p = pb.start();
    started.add(p);
    return p;
  }

  /** Runs {@code sluice args} to its end. */
  Result run(String... args) throws Exception {
    return finish(start(args));
  }

  /** Waits for {@code p} to exit and collects what it printed. */
  static Result finish(Process p) throws Exception {
    p.getOutputStream().close();
    CompletableFuture<String> out = drain(p.getInputStream());
    CompletableFuture<String> err = drain(p.getErrorStream());
    if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("sluice did not exit within " + TIMEOUT_SECONDS + " s: " + p);
    }
    return new Result(
        p.exitValue(),
        out.get(TIMEOUT_SECONDS, TimeUnit.SECONDS),
        err.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
  }

  static CompletableFuture<String> drain(InputStream in) {
    return CompletableFuture.supplyAsync(
        () -> {
          try (in) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            in.transferTo(b);
            return b.toString(StandardCharsets.UTF_8);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  @Override
  public void close() {
    started.forEach(Process::destroyForcibly);
  }

  /** What one run printed and how it ended. */
  record Result(int exit, String out, String err) {
    List<String> lines() {
      return out.lines().toList();
    }

    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }
}
