/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.SluiceProcesses.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The archive {@code package} makes installs by unpacking it anywhere: its {@code bin/sluice} runs
 * with no checkout and no Maven, picks the newest JDK 25+ of the machine (for its ahead-of-time
 * cache) or else the default java, trains its class cache once, and never writes a JVM warning on
 * the stderr that belongs to the command.
 */
class InstalledLayoutIT {

  @TempDir Path tmp;
  Path installed;
  Path noMaven;

  /** The archive this build packaged: target/sluice-VERSION.tar.gz. */
  private static Path archive() throws IOException {
    try (Stream<Path> files = Files.list(Path.of("target"))) {
      List<Path> archives =
          files.filter(f -> f.getFileName().toString().matches("sluice-.*\\.tar\\.gz")).toList();
      assertThat(archives).as("the packaged archive in target/").hasSize(1);
      return archives.get(0).toAbsolutePath();
    }
  }

  @BeforeEach
  void unpack() throws Exception {
    Path opt = Files.createDirectories(tmp.resolve("opt"));
    Process tar =
        new ProcessBuilder("tar", "-xzf", archive().toString(), "-C", opt.toString()).start();
    assertThat(SluiceProcesses.finish(tar).exit()).isZero();
    installed = opt.resolve("sluice");
    // A Maven that fails loudly comes first on PATH: the installed command must never start one.
    noMaven = Files.createDirectories(tmp.resolve("no-maven"));
    Path mvn = noMaven.resolve("mvn");
    Files.writeString(mvn, "#!/bin/sh\necho 'an installed sluice started Maven' >&2\nexit 99\n");
    Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private Result sluice(List<String> env, String... args) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(installed.resolve("bin/sluice").toString());
    pb.command().addAll(List.of("--home", tmp.resolve("home").toString()));
    pb.command().addAll(List.of(args));
    pb.environment().put("PATH", noMaven + ":" + System.getenv("PATH"));
    pb.environment().remove("SLUICE_JAVA");
    for (String kv : env) {
      String[] p = kv.split("=", 2);
      pb.environment().put(p[0], p[1]);
    }
    return SluiceProcesses.finish(pb.start());
  }

  private List<String> madeFor() throws IOException {
    return Files.readAllLines(installed.resolve("cache/made-for"));
  }

  /** The newest JDK 25 or later under /usr/lib/jvm, by its release file; 0 if none. */
  private static int newestAotJdk() throws IOException {
    Path jvms = Path.of("/usr/lib/jvm");
    if (!Files.isDirectory(jvms)) {
      return 0;
    }
    Pattern version = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);
    int best = 0;
    try (Stream<Path> homes = Files.list(jvms)) {
      for (Path home : homes.toList()) {
        Path release = home.resolve("release");
        if (Files.isExecutable(home.resolve("bin/java")) && Files.isReadable(release)) {
          Matcher m = version.matcher(Files.readString(release));
          if (m.find() && Integer.parseInt(m.group(1)) >= 25) {
            best = Math.max(best, Integer.parseInt(m.group(1)));
          }
        }
      }
    }
    return best;
  }

  @Test
  void theUnpackedArchiveRunsACommandWithNothingButItsOwnOutputOnStderr() throws Exception {
    String cmd = "echo to-stdout; echo to-stderr >&2; exit 3";
    Result first = sluice(List.of(), "run", "--", "sh", "-c", cmd);
    assertThat(first.exit()).as(first.toString()).isEqualTo(3);
    assertThat(first.out()).as(first.toString()).isEqualTo("to-stdout\n");
    assertThat(first.err()).as("the first call trains its cache silently").isEqualTo("to-stderr\n");

    List<String> made = madeFor();
    assertThat(made).hasSize(3);
    assertThat(made.get(0)).isEqualTo(installed.toRealPath() + " auto");
    int newest = newestAotJdk();
    if (newest > 0) {
      assertThat(Integer.parseInt(made.get(2)))
          .as("the newest JDK 25+ was chosen")
          .isEqualTo(newest);
    }
    assertThat(installed.resolve("cache/classes")).as("a trained cache").isNotEmptyFile();
    assertThat(installed.resolve("share/man/man1/sluice.1")).as("the man page").isNotEmptyFile();

    Result second = sluice(List.of(), "run", "--", "sh", "-c", cmd);
    assertThat(second.exit()).as(second.toString()).isEqualTo(3);
    assertThat(second.err()).isEqualTo("to-stderr\n");
    assertThat(madeFor()).as("trained once").isEqualTo(made);
  }

  @Test
  void sluiceJavaChoosesTheJvmAndRetrainsForIt() throws Exception {
    Path java17 = Path.of(System.getProperty("java.home"), "bin", "java");
    Result r = sluice(List.of("SLUICE_JAVA=" + java17), "run", "--", "sh", "-c", "echo e >&2");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.err()).isEqualTo("e\n");
    assertThat(madeFor().get(1)).isEqualTo(java17.toString());
    assertThat(madeFor().get(2)).isEqualTo(Integer.toString(Runtime.version().feature()));
  }
}
