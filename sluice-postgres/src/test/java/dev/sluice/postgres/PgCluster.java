/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The local Debian-style PostgreSQL cluster {@code <version>/main} behind the tests' server, which
 * {@code pg_ctlcluster} restarts and starts. Each command waits until the server is down or ready
 * ({@code pg_ctl -w}), so no test polls for it.
 */
final class PgCluster {
  private static final Path CONFIG_ROOT = Path.of("/etc/postgresql");

  private final String version;

  private PgCluster(String version) {
    this.version = version;
  }

  /**
   * The cluster; the calling test is skipped (an assumption fails) with what is missing if it
   * cannot be driven here: {@code pg_ctlcluster} on the PATH, one cluster {@code main} under {@code
   * /etc/postgresql}, and root or postgres to run it as.
   */
  static PgCluster local() throws IOException {
    assumeTrue(
        executable("pg_ctlcluster").isPresent(),
        "pg_ctlcluster is not on the PATH (" + System.getenv("PATH") + ")");
    assumeTrue(Files.isDirectory(CONFIG_ROOT), CONFIG_ROOT + " does not exist");
    List<String> versions = new ArrayList<>();
    try (Stream<Path> s = Files.list(CONFIG_ROOT)) {
      s.filter(p -> Files.isDirectory(p.resolve("main")))
          .forEach(p -> versions.add(p.getFileName().toString()));
    }
    assumeTrue(
        versions.size() == 1,
        "expected one cluster 'main' under " + CONFIG_ROOT + ", found versions " + versions);
    String user = System.getProperty("user.name");
    assumeTrue(
        user.equals("root") || user.equals("postgres"),
        "pg_ctlcluster needs root or postgres; the tests run as " + user);
    return new PgCluster(versions.get(0));
  }

  /** Restarts the server; returns when it accepts connections again. */
  void restart() throws IOException, InterruptedException {
    run("restart");
  }

  /** Starts the server if it is not running; returns when it accepts connections. */
  void ensureRunning() throws IOException, InterruptedException {
    if (command("status").waitFor() != 0) {
      run("start");
    }
  }

  private void run(String action) throws IOException, InterruptedException {
    Process p = command(action);
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException("pg_ctlcluster " + action + " failed: " + output);
    }
  }

  private Process command(String action) throws IOException {
    return new ProcessBuilder("pg_ctlcluster", "--skip-systemctl-redirect", version, "main", action)
        .redirectErrorStream(true)
        .start();
  }

  private static Optional<Path> executable(String name) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path p = Path.of(dir, name);
      if (Files.isExecutable(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }
}
