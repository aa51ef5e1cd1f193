/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@link LoggingProbe} in real JVMs with and without SLF4J on the class path: without it the
 * limiter works and writes nothing; with {@code slf4j-api} alone it stays silent too (no SLF4J
 * warning about a missing provider); with {@code slf4j-simple} the facade's lines appear, and a
 * listener that throws on every event is reported once.
 */
class LoggingProcessTest {
  @TempDir Path dir;

  private record Run(int exit, String out, String err) {}

  @Test
  void withoutSlf4jTheLimiterWorksAndWritesNothing() throws Exception {
    Run run = probe(entry -> !entry.contains("slf4j"));
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("bound=false result=ran,ran again");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void withTheApiButNoProviderItStaysSilent() throws Exception {
    Run run = probe(entry -> !entry.contains("slf4j-simple"));
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("bound=false result=ran,ran again");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void withSlf4jSimpleTheFacadeWritesThroughIt() throws Exception {
    Run run = probe(entry -> true);
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("bound=true result=ran,ran again");
    assertThat(run.err()).contains("WARN dev.sluice.spi.support.LoggingProbe - probe warning 42");
    List<String> listenerLines =
        run.err().lines().filter(l -> l.contains("listener") && l.contains("WARN")).toList();
    assertThat(listenerLines).as(run.err()).hasSize(1);
    assertThat(run.err()).contains("probe listener bug");
  }

  private Run probe(Predicate<String> keep) throws Exception {
    String classPath =
        Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(keep)
            .collect(Collectors.joining(File.pathSeparator));
    Path out = dir.resolve("out-" + System.nanoTime());
    Path err = dir.resolve("err-" + System.nanoTime());
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                classPath,
                LoggingProbe.class.getName())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("the probe JVM did not end within 60 s");
    }
    return new Run(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}
