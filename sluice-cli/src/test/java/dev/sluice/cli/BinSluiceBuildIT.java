/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.SluiceProcesses.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code bin/sluice} shows when it has to build: a copy of the real script in a checkout
 * without a layout, with a stand-in {@code mvn} first on {@code PATH} (a real nested Maven build
 * would take minutes, and would wait for the build lock the outer build may hold). The stand-in
 * either fails, or "builds" by copying the layout this build packaged; either way it prints on both
 * of its streams, and all of it must reach the caller's stderr.
 */
class BinSluiceBuildIT {
  @TempDir Path tmp;
  Path root;
  Path fakeBin;

  @BeforeEach
  void checkout() throws Exception {
    root = tmp.resolve("checkout");
    Files.createDirectories(root.resolve("bin"));
    Files.createDirectories(root.resolve("sluice-cli/target"));
    Path script = root.resolve("bin/sluice");
    Files.copy(BinSluiceIT.SCRIPT, script, StandardCopyOption.COPY_ATTRIBUTES);
    fakeBin = Files.createDirectories(tmp.resolve("fake-bin"));
  }

  /** A stand-in mvn that runs {@code body} in the checkout, as the script starts it. */
  void fakeMaven(String body) throws Exception {
    Path mvn = fakeBin.resolve("mvn");
    Files.writeString(mvn, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  Result binSluice(String... args) throws Exception {
    ProcessBuilder pb =
        new ProcessBuilder(
            root.resolve("bin/sluice").toString(), "--home", tmp.resolve("home").toString());
    pb.command().addAll(List.of(args));
    pb.environment().remove("SLUICE_REBUILD");
    pb.environment().put("PATH", fakeBin + ":" + System.getenv("PATH"));
    pb.environment().put("SLUICE_BUILD_LOCK", tmp.resolve("build.lock").toString());
    pb.environment().put("REAL_LAYOUT", BinSluiceIT.LAYOUT.toString());
    return SluiceProcesses.finish(pb.start());
  }

  @Test
  void aFailedBuildShowsMavensOutputSaysSoAndExits125() throws Exception {
    fakeMaven("echo '[ERROR] stand-in compile failure'; echo 'stand-in warning' >&2; exit 1");

    Result r = binSluice("run", "--", "true");

    assertThat(r.exit()).as(r.toString()).isEqualTo(125);
    assertThat(r.out()).as("nothing on stdout: it is the command's").isEmpty();
    assertThat(r.err())
        .as(r.toString())
        .contains("sluice: building the command")
        .contains("[ERROR] stand-in compile failure")
        .contains("stand-in warning")
        .contains("sluice: the build failed (mvn exited 1)");
  }

  @Test
  void afterABuildTheNoticeTheBuildsOutputAndTheCommandsStderrAllShow() throws Exception {
    fakeMaven(
        "echo 'stand-in build output'; echo 'stand-in build notice' >&2;"
            + " cp -Rp \"$REAL_LAYOUT\" sluice-cli/target/sluice");

    Result r = binSluice("run", "--", "sh", "-c", "echo to-stdout; echo to-stderr >&2; exit 3");

    assertThat(r.exit()).as(r.toString()).isEqualTo(3);
    assertThat(r.out()).as(r.toString()).isEqualTo("to-stdout\n");
    assertThat(r.err())
        .as(r.toString())
        .contains("sluice: building the command")
        .contains("stand-in build output")
        .contains("stand-in build notice")
        .contains("to-stderr");
    // Built once: the next call starts only java.
    fakeMaven("echo 'must not build again' >&2; exit 1");
    Result again = binSluice("run", "--", "sh", "-c", "echo again >&2");
    assertThat(again.exit()).as(again.toString()).isZero();
    assertThat(again.err()).isEqualTo("again\n");
  }
}
