/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What {@code sluice submit} asks for besides its pool and weight, as {@code run} does: queue
 * timeout, label, reason, operation key and the command. Mixed into {@code submit} and into the
 * job's runner, which receives the same options from it.
 *
 * <p>Not thread-safe: filled by picocli on the parsing thread.
 */
final class JobOptions {
  @Option(
      names = "--queue-timeout",
      paramLabel = "D",
      description =
          "Give up after waiting D: the job then never runs (wait exits 124); default: wait as"
              + " long as it takes.")
  Duration queueTimeout;

  @Option(names = "--label", paramLabel = "L", description = "Shown to people (default: CMD).")
  String label;

  @Option(names = "--reason", paramLabel = "R", description = "Why it runs.")
  String reason = "";

  @Option(
      names = "--op",
      paramLabel = "KEY",
      description =
          "Operation key: submitting again with it, while the job waits or runs, answers the same"
              + " job (default: unique per job).")
  String op;

  @Parameters(paramLabel = "CMD", arity = "1..*", description = "The command and its arguments.")
  List<String> command;

  /** The label the job is shown with: {@code --label}, else the command. */
  String labelOrCommand() {
    return label != null ? label : RunAction.describe(command);
  }
}
