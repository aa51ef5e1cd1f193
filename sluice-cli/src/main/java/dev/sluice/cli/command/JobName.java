/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.gate.JobRef;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * How {@code cancel} and {@code kill} name their job: a request id, or {@code --label L}, exactly
 * one of them. Not thread-safe: one invocation, one thread.
 */
final class JobName {
  @Parameters(
      paramLabel = "ID",
      arity = "0..1",
      description = "The job's request id (rN, as sluice jobs shows it).")
  String requestId;

  @Option(
      names = "--label",
      paramLabel = "L",
      description =
          "The job with this label instead of an id; refused if no queued or running job has it,"
              + " or several do.")
  String label;

  /** The job named, or a usage error when both or neither were given. */
  JobRef ref(CommandSpec spec) {
    if ((requestId == null) == (label == null)) {
      throw new ParameterException(
          spec.commandLine(),
          spec.name()
              + " needs exactly one job: a request id or --label L"
              + (requestId == null ? "" : ", not both (got " + requestId + " and --label)"));
    }
    try {
      return requestId != null ? new JobRef.ById(requestId) : new JobRef.ByLabel(label);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }
}
