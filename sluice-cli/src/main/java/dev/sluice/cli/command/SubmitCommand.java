/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.ExitCode;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.JsonObject;
import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.Job;
import dev.sluice.gate.SubmittedJobs;
import dev.sluice.local.CrashStages;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code sluice submit}: queues a command to run detached when its turn comes and returns at once
 * with its id, as {@code pueue add} and {@code tsp} do. Everything is checked first (the options,
 * the pool rule, the weight against the pool's capacity); then a runner ({@link RunnerProcess}) is
 * started in a session of its own, which queues the job in the pool's FIFO, answers its id, and
 * later runs it into its log and records its exit status. See {@code sluice logs} and {@code sluice
 * wait}.
 *
 * <p>Not thread-safe: one invocation, one thread; it blocks only until the runner answered.
 */
@Command(
    name = "submit",
    header = "Queue CMD to run detached when its turn comes; print its id.",
    mixinStandardHelpOptions = true,
    description = {
      "Queue CMD in the pool's FIFO and return at once with the job's id (the request id, r12)."
          + " The job runs when its turn comes, detached from this shell (its own session, stdin"
          + " from /dev/null), with stdout and stderr appended to its log, <home>/logs/<id>.log.",
      "Follow it with sluice logs ID [--follow], sluice wait ID (exits with the job's status) and"
          + " sluice jobs. Exit 0 once queued; 2 for a bad option; 3 if the gate refused (unknown"
          + " pool, weight above capacity), and then nothing is queued."
    })
final class SubmitCommand extends Verb {
  /** Test-only stage ({@link CrashStages}): the runner is started, its answer not yet read. */
  static final String RUNNER_STARTED = "submit-runner-started";

  @Mixin PoolWeight capacity;
  @Mixin JobOptions job;

  @Override
  int execute() throws IOException, InterruptedException {
    String agent = actor();
    String op = job.op != null ? job.op : "submit-" + UUID.randomUUID().toString().substring(0, 13);
    AcquireRequest request =
        capacity.inPool(
            new AcquireRequest(
                agent, op, capacity.pool, capacity.weight, job.labelOrCommand(), job.reason),
            this::gate);
    SubmittedJobs jobs = gate().submittedJobs();
    Optional<Job> existing = jobs.check(request);
    if (existing.isPresent()) {
      answer(existing.get(), true, OptionalLong.empty());
      return ExitCode.OK.code();
    }
    RunnerProcess runner =
        RunnerProcess.start(
            spec.root().commandLine().getParseResult().originalArgs(),
            runnerArgs(agent, op, request.pool()));
    CrashStages.reach(RUNNER_STARTED);
    RunnerProcess.Answer answer = runner.await();
    if (answer.requestId().isEmpty()) {
      Errors.Failure f = answer.failure();
      err().println("error: " + f.code() + ": " + f.message());
      err().flush();
      if (json()) {
        out().println(GateJson.line(GateJson.error(f.code(), f.message())));
        out().flush();
      }
      return f.exit().code();
    }
    Job queued = jobs.job(answer.requestId().get()).orElseThrow();
    answer(queued, false, OptionalLong.of(runner.pid()));
    return ExitCode.OK.code();
  }

  /**
   * The runner's command line after the JVM's: the same checked options, as {@code --name=value}.
   */
  private List<String> runnerArgs(String agent, String op, String pool) {
    List<String> a = new ArrayList<>();
    a.add("--home=" + gate().home());
    a.add("--agent=" + agent);
    a.add(RunnerProcess.VERB);
    a.add("--pool=" + pool);
    a.add("--weight=" + capacity.weight);
    a.add("--op=" + op);
    a.add("--label=" + job.labelOrCommand());
    a.add("--reason=" + job.reason);
    if (job.queueTimeout != null) {
      a.add("--queue-timeout=" + job.queueTimeout);
    }
    a.add("--");
    a.addAll(job.command);
    return a;
  }

  /** The job's id (text), or the job with its request as it stands now (JSON). */
  private void answer(Job j, boolean again, OptionalLong runnerPid) {
    JsonObject o = JobAnswers.json(j);
    gate().ticket(j.requestId()).ifPresent(t -> JobAnswers.request(o, t));
    o.put("alreadySubmitted", again);
    runnerPid.ifPresent(pid -> o.put("runnerPid", pid));
    print(o, j.requestId());
  }
}
