/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code sluice job-runner}, hidden: the detached process {@code sluice submit} starts for each
 * job, with the options the submit was given (already checked). The work is {@link JobRunner}'s.
 *
 * <p>Not thread-safe: one invocation, one thread; it blocks while the job waits and runs.
 */
@Command(
    name = RunnerProcess.VERB,
    hidden = true,
    header = "The runner of one submitted job (started by sluice submit).",
    description = "Queues the job, answers its id on stdout, then runs it into its log.")
final class JobRunnerCommand extends Verb {
  @Mixin PoolWeight capacity;
  @Mixin JobOptions job;

  @Override
  int execute() throws InterruptedException {
    return new JobRunner(root().homePath(), actor(), capacity.pool, capacity.weight, job, out())
        .run();
  }
}
