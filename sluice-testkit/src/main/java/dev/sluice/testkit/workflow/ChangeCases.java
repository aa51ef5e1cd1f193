/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.spi.Change;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.StepKind;
import dev.sluice.workflow.spi.StepOutcome;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import dev.sluice.workflow.spi.WorkflowVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a commit tells the sessions of the store ({@link WorkflowSession#onChange}): every kind of
 * change it made reaches every session, the writer's and another's, so that a runtime that wakes
 * idle workers only for {@link Change#WORK} and result waiters only for an {@link Change#OUTCOME}
 * misses nothing. A store may tell more than a commit made, never less.
 */
public abstract class ChangeCases extends WorkflowCase {
  private final List<WorkflowSession> sessions = new ArrayList<>();

  protected ChangeCases(WorkflowStoreFactory stores) {
    super(stores);
  }

  @AfterEach
  void closeSessions() {
    sessions.forEach(WorkflowSession::close);
  }

  /** A session that records what it is told. */
  private Heard listen() {
    WorkflowSession s = store().open();
    sessions.add(s);
    Heard heard = new Heard(s);
    s.onChange(heard.told::add);
    return heard;
  }

  /** A session and what it was told, in order. */
  private record Heard(WorkflowSession session, LinkedBlockingQueue<Set<Change>> told) {
    Heard(WorkflowSession session) {
      this(session, new LinkedBlockingQueue<>());
    }

    /** Waits until a change of {@code kind} is told; what was told before it is passed over. */
    void awaitTold(Change kind, String what) throws InterruptedException {
      long deadline = System.nanoTime() + SAFETY.toNanos();
      while (true) {
        Set<Change> next = told.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        assertThat(next).as("%s tells %s within the safety timeout", what, kind).isNotNull();
        assertThat(next).as("a change told is never empty").isNotEmpty();
        if (next.contains(kind)) {
          return;
        }
      }
    }
  }

  @Test
  void aSubmitAClaimAStepAndAnEndAreToldToEverySessionWithTheirKinds() throws Exception {
    Heard writer = listen();
    Heard other = listen();
    WorkflowSession me = writer.session();
    String owner = me.ownerId();

    me.transact(
        tx -> {
          tx.putExecution(ExecutionRecord.queued("ch-1", "w", 1, "\"x\"", tx.now()));
          return null;
        });
    other.awaitTold(Change.WORK, "a queued execution");
    writer.awaitTold(Change.WORK, "a queued execution, to its writer");

    ExecutionRecord claimed =
        me.transact(tx -> tx.claimNext(Set.of(new WorkflowVersion("w", 1)), 1)).get(0);
    assertThat(claimed.claimOwner()).isEqualTo(owner);
    other.awaitTold(Change.PROGRESS, "a claim");

    me.transact(
        tx -> {
          tx.putStep(
              new StepRecord(
                  "ch-1", 0, "a", StepKind.STEP, new StepOutcome.Value("\"a\""), tx.now()));
          return null;
        });
    other.awaitTold(Change.PROGRESS, "a step");

    me.transact(
        tx -> {
          tx.putExecution(claimed.finished(ExecutionStatus.COMPLETED, "\"y\"", null, tx.now()));
          return null;
        });
    other.awaitTold(Change.OUTCOME, "a completion");
    writer.awaitTold(Change.OUTCOME, "a completion, to its writer");
  }

  @Test
  void anExecutionPutBackInTheQueueOrSetWaitingIsWork() throws Exception {
    Heard other = listen();
    WorkflowSession me = listen().session();
    ExecutionRecord running =
        ExecutionRecord.queued("ch-2", "w", 1, "\"x\"", clock.wallMillis())
            .claimedBy(me.ownerId(), clock.wallMillis());
    me.transact(
        tx -> {
          tx.putExecution(running);
          return null;
        });
    other.told.clear();

    me.transact(
        tx -> {
          tx.putExecution(running.unclaimed(ExecutionStatus.WAITING, tx.now()));
          return null;
        });
    other.awaitTold(Change.WORK, "an execution set waiting");
  }
}
