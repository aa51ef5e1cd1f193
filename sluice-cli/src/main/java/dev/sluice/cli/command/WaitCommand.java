/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.ExitCode;
import dev.sluice.gate.Job;
import dev.sluice.gate.SubmittedJobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice wait ID…}: blocks until every named job has ended, printing each as it is known (in
 * the order given), and exits with the first non-zero status among them in that order, so {@code
 * sluice wait r12 && deploy} runs {@code deploy} only if the job succeeded. The wait sleeps until
 * the gate changes (the runner records the end, the runner dies, the job's process group ends),
 * never in a polling loop. Like {@code run}, its own errors exit 125, so they never pass for a
 * job's status.
 *
 * <p>Not thread-safe: one invocation, one thread; it blocks until the jobs end.
 */
@Command(
    name = "wait",
    header = "Wait for submitted jobs to end; exit with their status.",
    mixinStandardHelpOptions = true,
    description = {
      "Wait until each job has ended and print how (one line, or one JSON object, per job, in the"
          + " order given).",
      "Exit status: 0 if every job exited 0; else the first non-zero status in the order given: the"
          + " job's own (128+N if signal N killed it), 124 if it got no slot within its"
          + " --queue-timeout, 125 if it did not run (cancelled, refused, its runner ended first) or"
          + " for an error of wait itself (an unknown ID), 122 if it ran but its exit status is"
          + " unknown (its runner was killed)."
    })
final class WaitCommand extends Verb {
  /** As long as it takes: ten years, far from any arithmetic overflow. */
  private static final Duration FOREVER = Duration.ofDays(3650);

  @Parameters(paramLabel = "ID", arity = "1..*", description = "Jobs, by the id submit printed.")
  List<String> ids;

  @Override
  int execute() throws InterruptedException {
    SubmittedJobs jobs = gate().submittedJobs();
    List<Job> known = new ArrayList<>();
    for (String id : ids) {
      // Every id is checked before any wait: a typo is reported at once, not after the others.
      known.add(jobs.await(id, Duration.ZERO));
    }
    int status = ExitCode.OK.code();
    for (Job j : known) {
      Job ended = j.end() != null ? j : jobs.await(j.requestId(), FOREVER);
      print(JobAnswers.json(ended), JobAnswers.line(ended));
      int own = JobAnswers.waitStatus(ended.end());
      if (status == ExitCode.OK.code()) {
        status = own;
      }
    }
    return status;
  }
}
