/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.BackendFailureException;
import dev.sluice.TimeSource;
import dev.sluice.spi.support.Log;
import dev.sluice.spi.support.Logs;
import dev.sluice.workflow.NonDeterminismException;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowCodec;
import dev.sluice.workflow.WorkflowCodecException;
import dev.sluice.workflow.WorkflowFunction;
import dev.sluice.workflow.WorkflowInstrumentation;
import dev.sluice.workflow.WorkflowSuspension;
import dev.sluice.workflow.internal.Claims.Claim;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.FailureRecord;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import java.util.function.BooleanSupplier;

/**
 * The run of one claimed execution from replay to its next commit: decodes the input, runs the
 * workflow function on a {@link ReplayContext}, and writes what it ended with (a result, a failure,
 * a suspension, or the execution back in the queue), each through a unit of work that checks the
 * claim first. Nothing that happens to one execution escapes to the worker.
 *
 * <p>Thread-safe: it holds no state of its own; {@link #run} blocks while the function runs.
 */
final class ExecutionRunner {
  private static final Log LOG = Logs.of(ExecutionRunner.class);
  private final java.util.function.Consumer<dev.sluice.workflow.StepEvent> steps;
  private final WorkflowSession session;
  private final WorkflowCodec codec;
  private final TimeSource clock;
  private final Registry registry;
  private final BooleanSupplier closing;
  private final WorkflowInstrumentation instrumentation;

  ExecutionRunner(
      WorkflowSession session,
      WorkflowCodec codec,
      TimeSource clock,
      Registry registry,
      BooleanSupplier closing,
      WorkflowInstrumentation instrumentation,
      java.util.function.Consumer<dev.sluice.workflow.StepEvent> steps) {
    this.instrumentation = instrumentation;
    this.steps = steps;
    this.session = session;
    this.codec = codec;
    this.clock = clock;
    this.registry = registry;
    this.closing = closing;
  }

  /** Runs a claimed execution until it finishes, suspends or must be left; never throws. */
  void run(Units.Claimed c) {
    ExecutionRecord e = c.execution();
    Claim claim = Claim.of(e);
    try {
      runClaimed(e, c, claim);
    } catch (BackendFailureException failure) {
      // The store failed under the run: leave the execution to a later claim.
      LOG.warn("execution '{}': store failed during the run; releasing it", e.id(), failure);
      try {
        session.transactOn(claim.executionId(), tx -> Units.release(tx, claim));
      } catch (RuntimeException again) {
        LOG.warn("execution '{}' not released; a later claim takes it over", e.id(), again);
      }
    } catch (RuntimeException | Error bug) {
      // Never let one execution stop a worker, and never claim it again only to fail the same way.
      LOG.error("execution '{}' failed in the runtime", e.id(), bug);
      finish(claim, null, Failures.of(bug));
    }
  }

  @SuppressWarnings("unchecked")
  private void runClaimed(ExecutionRecord e, Units.Claimed c, Claim claim) {
    Workflow<Object, Object> wf =
        (Workflow<Object, Object>)
            registry
                .find(e.workflow(), e.version())
                .orElseThrow(() -> new IllegalStateException("claimed an unregistered version"));
    Object input;
    try {
      input = codec.decode(e.input(), wf.inputType());
    } catch (RuntimeException bad) {
      finish(
          claim,
          null,
          Failures.of(
              new WorkflowCodecException(
                  "input of execution '"
                      + e.id()
                      + "' of workflow '"
                      + e.workflow()
                      + "': "
                      + bad.getMessage(),
                  bad)));
      return;
    }
    StepObserver observer =
        instrumentation == null
            ? null
            : new StepObserver(instrumentation, e.workflow(), e.id(), c.steps());
    ReplayContext ctx =
        new ReplayContext(
            e.id(),
            e.workflow(),
            c.steps(),
            claim,
            session,
            codec,
            clock,
            closing,
            steps,
            observer);
    WorkflowFunction<Object, Object> fn = wf.function();
    Object output = null;
    Throwable thrown = null;
    try {
      output = fn.run(ctx, input);
    } catch (Throwable t) {
      thrown = t;
    } finally {
      ctx.end();
    }
    // The last step's record, if the run left it unwritten, goes with the run's outcome.
    StepRecord last = ctx.takeUnrecorded();
    Suspension pending = ctx.pending();
    if (pending instanceof Suspension.Abandon) {
      LOG.info(
          "execution '{}' lost its claim at step '{}' (cancelled, timed out or taken over);"
              + " nothing more of this run is recorded",
          e.id(),
          pending.stepKey());
      return;
    }
    if (ctx.failure() != null) {
      finish(claim, last, Failures.of(ctx.failure()));
      return;
    }
    if (pending != null) {
      if (thrown != ctx.thrown()) {
        finish(
            claim,
            last,
            Failures.of(
                new NonDeterminismException(
                    "execution '"
                        + e.id()
                        + "' went on after it was suspended at step '"
                        + pending.stepKey()
                        + "': the workflow function must let WorkflowSuspension through (do not"
                        + " catch Throwable or Error around WorkflowContext calls)")));
        return;
      }
      if (last != null) {
        // Every suspension comes from a context call, which writes the kept record first.
        throw new IllegalStateException("a suspended run left a step record unwritten");
      }
      LOG.debug("execution '{}' suspended at step '{}'", e.id(), pending.stepKey());
      if (pending instanceof Suspension.Wait w) {
        session.transactOn(
            claim.executionId(), tx -> Units.suspend(tx, claim, w.step(), w.dueAt()));
      } else if (pending instanceof Suspension.Park) {
        session.transactOn(claim.executionId(), tx -> Units.park(tx, claim));
      } else {
        session.transactOn(claim.executionId(), tx -> Units.release(tx, claim));
      }
      return;
    }
    if (thrown instanceof WorkflowSuspension s) {
      finish(
          claim,
          last,
          Failures.of(
              new NonDeterminismException(
                  "execution '"
                      + e.id()
                      + "' threw a WorkflowSuspension for step '"
                      + s.stepKey()
                      + "' that its WorkflowContext did not throw")));
      return;
    }
    if (thrown != null) {
      finish(claim, last, Failures.of(thrown));
      return;
    }
    String unfinished = Replay.unfinished(e.id(), ctx.recorded(), ctx.position());
    if (unfinished != null) {
      finish(claim, last, Failures.of(new NonDeterminismException(unfinished)));
      return;
    }
    String payload;
    try {
      payload = codec.encode(output, wf.outputType());
    } catch (WorkflowCodecException bad) {
      finish(claim, last, Failures.of(bad));
      return;
    }
    session.transactOn(claim.executionId(), tx -> Units.complete(tx, claim, last, payload));
    LOG.debug("execution '{}' of workflow '{}' completed", e.id(), e.workflow());
  }

  private void finish(Claim claim, StepRecord last, FailureRecord failure) {
    session.transactOn(claim.executionId(), tx -> Units.fail(tx, claim, last, failure));
    LOG.info(
        "execution '{}' failed: {}: {}",
        claim.executionId(),
        failure.className(),
        failure.message());
  }
}
