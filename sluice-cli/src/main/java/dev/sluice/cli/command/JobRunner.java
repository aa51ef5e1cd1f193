/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.SluiceException;
import dev.sluice.cli.Durations;
import dev.sluice.cli.ExitCode;
import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.GateService;
import dev.sluice.gate.Job;
import dev.sluice.gate.JobEnd;
import dev.sluice.gate.Permit;
import dev.sluice.gate.SubmittedJobs;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The work of a submitted job's runner: queues the job ({@link SubmittedJobs#submitOwned}), answers
 * its id to the submitter, waits for its turn, runs the command with stdin from {@code /dev/null}
 * and stdout and stderr appended to the job's log (merged, as a terminal shows them), and records
 * its exit status as it releases the slot. What it has to say after the answer (a queue timeout, a
 * cancel) goes to the log too, in lines that start with {@code sluice:}; the submitter may be gone.
 *
 * <p>Not thread-safe: one invocation, one thread; {@link #run} blocks while the job waits and runs.
 */
final class JobRunner {
  /** "No timeout": as for {@code sluice run}. */
  private static final Duration FOREVER = Duration.ofDays(3650);

  private final Path home;
  private final String agent;
  private final String pool;
  private final int weight;
  private final JobOptions job;
  private final PrintWriter answers;
  private String requestId;
  private Path log;

  JobRunner(Path home, String agent, String pool, int weight, JobOptions job, PrintWriter answers) {
    this.home = home;
    this.agent = agent;
    this.pool = pool;
    this.weight = weight;
    this.job = job;
    this.answers = answers;
  }

  /** Queues and runs the job; returns its exit status, or 124/125 if it did not run. */
  int run() throws InterruptedException {
    AcquireRequest request;
    GateService gate;
    try {
      request = new AcquireRequest(agent, job.op, pool, weight, job.labelOrCommand(), job.reason);
      gate = GateService.open(home);
    } catch (SluiceException | UncheckedIOException | IllegalArgumentException e) {
      return refuse(e);
    }
    try {
      return run(gate, request);
    } catch (RuntimeException | Error e) {
      if (requestId != null) {
        // Nobody reads this process's stderr any longer: the log is where a bug can be seen.
        note("internal error: " + e);
      }
      throw e;
    } finally {
      gate.close();
    }
  }

  private int run(GateService gate, AcquireRequest request) throws InterruptedException {
    SubmittedJobs jobs = gate.submittedJobs();
    Duration timeout = job.queueTimeout == null ? FOREVER : job.queueTimeout;
    Optional<Permit> permit;
    try {
      permit = jobs.submitOwned(request, job.command, timeout, answerOnce(jobs));
    } catch (SluiceException | UncheckedIOException | IllegalArgumentException e) {
      if (requestId == null) {
        return refuse(e);
      }
      note(Errors.classify(e).code() + ": " + e.getMessage() + "; " + label() + " did not run");
      return ExitCode.RUN_FAILED.code();
    }
    if (permit.isEmpty()) {
      note(
          "no capacity in pool "
              + pool
              + " within "
              + Durations.human(timeout)
              + "; "
              + label()
              + " did not run");
      return ExitCode.QUEUE_TIMEOUT.code();
    }
    return launch(gate, jobs, permit.get());
  }

  private int launch(GateService gate, SubmittedJobs jobs, Permit permit) {
    CompletableFuture<StartSignal> signal = StartSignal.prepare();
    File logFile = log.toFile();
    Consumer<ProcessBuilder> streams =
        pb ->
            pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile))
                .redirectErrorStream(true);
    try (PrintWriter notes = logWriter()) {
      Launch.Exit exit =
          (status, reason) -> {
            try {
              jobs.finish(permit.permitToken(), requestId, JobEnd.exited(status));
            } catch (SluiceException | UncheckedIOException e) {
              // The slot still ends with the command's group; the job is then settled as lost.
              notes.println("sluice: warning: could not record the job's end: " + e.getMessage());
              notes.flush();
            }
          };
      return new Launch(gate, permit, signal, job.command, notes, streams, exit).run();
    } catch (IOException e) {
      StartSignal.discard(signal);
      try {
        gate.release(permit.permitToken(), "could not open the log: " + e.getMessage());
      } catch (SluiceException | UncheckedIOException ignored) {
        // The slot ends with this process anyway: its permit was never started.
      }
      return ExitCode.RUN_FAILED.code();
    }
  }

  /** Answers the submitter once, with the id of the job just queued. */
  private Consumer<AcquireOutcome> answerOnce(SubmittedJobs jobs) {
    return outcome -> {
      if (requestId != null) {
        return;
      }
      String id = outcome.ticket().requestId();
      log = jobs.job(id).map(Job::log).orElseThrow();
      // A submitter that is gone already makes this write fail quietly: the job runs all the same.
      answers.println(RunnerProcess.queued(id));
      answers.flush();
      requestId = id;
    };
  }

  private int refuse(Exception e) {
    Errors.Failure f = Errors.classify(e);
    answers.println(RunnerProcess.refused(f));
    answers.flush();
    return f.exit().code();
  }

  private PrintWriter logWriter() throws IOException {
    return new PrintWriter(
        Files.newBufferedWriter(log, StandardCharsets.UTF_8, StandardOpenOption.APPEND));
  }

  /** A line of the runner's own in the job's log. */
  private void note(String message) {
    try (PrintWriter w = logWriter()) {
      w.println("sluice: " + message);
    } catch (IOException e) {
      // Nowhere left to say it; the job's record says how it ended.
    }
  }

  private String label() {
    return requestId + " (" + job.labelOrCommand() + ")";
  }
}
