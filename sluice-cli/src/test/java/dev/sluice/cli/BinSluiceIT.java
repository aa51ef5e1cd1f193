/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.SluiceProcesses.Result;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/sluice} itself, on the module path of the packaged layout. An integration test, run by
 * failsafe after {@code package} made the layout: without it the script would start a Maven build
 * of its own, inside this one.
 */
class BinSluiceIT {
  static final Path SCRIPT = Path.of("..", "bin", "sluice").toAbsolutePath().normalize();
  static final Path LAYOUT = Path.of("target", "sluice").toAbsolutePath();

  @TempDir Path home;

  Result binSluice(String... args) throws Exception {
    assertThat(SCRIPT).as("the script").isExecutable();
    assertThat(LAYOUT.resolve("native")).as("the packaged layout").isDirectory();
    ProcessBuilder pb = new ProcessBuilder(SCRIPT.toString(), "--home", home.toString());
    pb.command().addAll(java.util.List.of(args));
    pb.environment().remove("SLUICE_REBUILD");
    return SluiceProcesses.finish(pb.start());
  }

  @Test
  void helpAndAStatusRunWithoutMaven() throws Exception {
    Result help = binSluice("--help");
    assertThat(help.exit()).as(help.toString()).isZero();
    assertThat(help.err()).doesNotContain("building");
    Result status = binSluice("--json", "status");
    assertThat(status.exit()).as(status.toString()).isZero();
    assertThat(status.out()).isEqualTo("{\"pools\":[]}\n");
  }
}
