/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@link WorkflowLogProbe} in real JVMs with and without SLF4J on the class path: without a
 * provider the runtime writes nothing at all; with {@code slf4j-simple} its lines appear at their
 * levels, through the loggers of the classes that write them.
 */
class WorkflowLoggingProcessTest {
  @TempDir Path dir;

  private record Run(int exit, String out, String err) {}

  @Test
  void withoutSlf4jTheRuntimeWritesNothing() throws Exception {
    Run run = probe(entry -> !entry.contains("slf4j"));
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("outcome=done x, failed");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void withTheApiButNoProviderItStaysSilent() throws Exception {
    Run run = probe(entry -> !entry.contains("slf4j-simple"));
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.err()).isEmpty();
  }

  @Test
  void withSlf4jSimpleTheRuntimeReportsItsLifeAndAFailedExecution() throws Exception {
    Run run = probe(entry -> true);
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("outcome=done x, failed");
    assertThat(run.err())
        .contains(
            "INFO dev.sluice.workflow.internal.WorkflowRuntimeImpl - workflow runtime on store"
                + " log-probe started with")
        .contains(
            "INFO dev.sluice.workflow.internal.ExecutionRunner - execution 'bad-1' failed:"
                + " java.lang.IllegalStateException: probe declined")
        .contains("workflow runtime on store log-probe closed");
    assertThat(run.err()).as("debug lines are off by default").doesNotContain("'ok-1'");
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
                WorkflowLogProbe.class.getName())
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
