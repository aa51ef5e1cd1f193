/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.ExitCode;
import dev.sluice.gate.Job;
import dev.sluice.gate.SubmittedJobs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice logs ID [--follow]}: prints a submitted job's log (its stdout and stderr, merged,
 * as written), byte for byte; with {@code --follow}, then prints what the job appends until it ends
 * ({@link LogFollow}).
 *
 * <p>Not thread-safe: one invocation; with {@code --follow} it blocks until the job ends.
 */
@Command(
    name = "logs",
    header = "Print a submitted job's output; --follow until it ends.",
    mixinStandardHelpOptions = true,
    description = {
      "Print the log of a submitted job: its stdout and stderr, merged, byte for byte, and any line"
          + " of the gate's own (starting with 'sluice:'), such as why it did not run.",
      "With --follow, keep printing what it appends until the job ends, then exit 0. A job that"
          + " already ended is printed whole."
    })
final class LogsCommand extends Verb {
  @Parameters(paramLabel = "ID", description = "The job, by the id submit printed.")
  String id;

  @Option(
      names = {"-f", "--follow"},
      description = "Keep printing what the job appends until it ends.")
  boolean follow;

  @Override
  int execute() throws IOException, InterruptedException {
    SubmittedJobs jobs = gate().submittedJobs();
    Job job = jobs.await(id, Duration.ZERO);
    try {
      new LogFollow(jobs, job, System.out).run(follow && job.end() == null);
    } catch (NoSuchFileException e) {
      throw new UncheckedIOException(
          new IOException("the log of " + id + " is gone: " + job.log() + " was removed", e));
    }
    return ExitCode.OK.code();
  }
}
