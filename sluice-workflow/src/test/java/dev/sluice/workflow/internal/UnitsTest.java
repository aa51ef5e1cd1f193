/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.memory.MemoryWorkflowStore;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.StepKind;
import dev.sluice.workflow.spi.StepOutcome;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.TimerRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import dev.sluice.workflow.spi.WorkflowVersion;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The units of work on the memory store: claims, timers, take-over, stale writes, rollback. */
class UnitsTest {
  private final FixedClock clock = new FixedClock();
  private final MemoryWorkflowStore store =
      MemoryWorkflowStore.named("units-" + UUID.randomUUID(), clock);
  private final WorkflowSession me = store.open();

  /** Version 1 of workflow {@code w}, with room for every run. */
  private static final Units.Runnables W =
      new Units.Runnables() {
        @Override
        public Set<WorkflowVersion> now() {
          return Set.of(new WorkflowVersion("w", 1));
        }

        @Override
        public boolean tryReserve(ExecutionRecord claimed) {
          return true;
        }
      };

  @AfterEach
  void close() {
    me.close();
  }

  private void put(ExecutionRecord e) {
    me.transact(
        tx -> {
          tx.putExecution(e);
          return null;
        });
  }

  private Units.ClaimResult claim() {
    return me.transact(tx -> Units.claim(tx, W, Long.MAX_VALUE / 4, Map.of()));
  }

  @Test
  void claimingFiresDueTimersAndReportsTheNextOne() {
    ExecutionRecord waiting =
        ExecutionRecord.queued("e", "w", 1, "1", 0)
            .claimedBy("x", 0)
            .unclaimed(ExecutionStatus.WAITING, 0);
    put(waiting);
    me.transact(
        tx -> {
          tx.putTimer(new TimerRecord("e", clock.wallMillis() + 5));
          return null;
        });
    assertThat(claim())
        .isEqualTo(
            new Units.Idle(
                java.util.OptionalLong.of(clock.wallMillis() + 5), Long.MAX_VALUE, false));
    clock.millis.addAndGet(5);
    assertThat(claim())
        .isInstanceOfSatisfying(
            Units.Claimed.class,
            c -> assertThat(c.execution().claimOwner()).isEqualTo(me.ownerId()));
    assertThat(claim())
        .isEqualTo(new Units.Idle(java.util.OptionalLong.empty(), Long.MAX_VALUE, false));
  }

  @Test
  void aDeadOwnersClaimIsTakenOverAndItsLateWritesAreRefused() {
    WorkflowSession other = store.open();
    ExecutionRecord theirs =
        ExecutionRecord.queued("e", "w", 1, "1", 0).claimedBy(other.ownerId(), 0);
    put(theirs);
    Claims.Claim stale = Claims.Claim.of(theirs);
    assertThat(claim()).as("a live owner keeps its claim").isInstanceOf(Units.Idle.class);

    other.close();
    assertThat(claim()).isInstanceOf(Units.Claimed.class);
    StepRecord late = new StepRecord("e", 0, "a", StepKind.STEP, new StepOutcome.Value("1"), 0);
    assertThat(me.<Boolean>transact(tx -> Units.record(tx, stale, late))).isFalse();
    assertThat(me.<Boolean>transact(tx -> Units.complete(tx, stale, null, "1"))).isFalse();
    assertThat(me.<java.util.List<StepRecord>>transact(tx -> tx.steps("e"))).isEmpty();
  }

  @Test
  void aClaimWhoseRunCannotBeReservedKeepsNothingAndAGlobalLimitPassesItsWorkflowOver() {
    ExecutionRecord queued = ExecutionRecord.queued("e", "w", 1, "1", 0);
    put(queued);
    Units.Runnables full =
        new Units.Runnables() {
          @Override
          public Set<WorkflowVersion> now() {
            return W.now();
          }

          @Override
          public boolean tryReserve(ExecutionRecord claimed) {
            return false;
          }
        };
    assertThatThrownBy(() -> me.transact(tx -> Units.claim(tx, full, Long.MAX_VALUE / 4, Map.of())))
        .isInstanceOf(Units.LostReservation.class)
        .hasMessageContaining("'w'");
    assertThat(me.<java.util.Optional<ExecutionRecord>>transact(tx -> tx.execution("e")))
        .contains(queued);

    put(ExecutionRecord.queued("r", "w", 1, "1", 0).claimedBy(me.ownerId(), 0));
    assertThat(
            me.<Units.ClaimResult>transact(
                tx -> Units.claim(tx, W, Long.MAX_VALUE / 4, Map.of("w", 1))))
        .as("one of w runs, its store-wide limit")
        .isInstanceOf(Units.Idle.class);
    assertThat(
            me.<Units.ClaimResult>transact(
                tx -> Units.claim(tx, W, Long.MAX_VALUE / 4, Map.of("w", 2))))
        .isInstanceOfSatisfying(
            Units.Claimed.class, c -> assertThat(c.execution().id()).isEqualTo("e"));
  }

  @Test
  void aUnitThatThrowsLeavesNothingBehind() {
    put(ExecutionRecord.queued("keep", "w", 1, "1", 0));
    assertThatThrownBy(
            () ->
                me.transact(
                    tx -> {
                      tx.putExecution(ExecutionRecord.queued("gone", "w", 1, "1", 0));
                      tx.deleteExecution("keep");
                      tx.putTimer(new TimerRecord("gone", 1));
                      throw new IllegalStateException("abort");
                    }))
        .hasMessage("abort");
    assertThat(me.<java.util.Optional<ExecutionRecord>>transact(tx -> tx.execution("keep")))
        .isPresent();
    assertThat(me.<java.util.Optional<ExecutionRecord>>transact(tx -> tx.execution("gone")))
        .isEmpty();
    assertThat(me.<java.util.OptionalLong>transact(tx -> tx.nextTimer())).isEmpty();
  }

  @Test
  void cancelFinishesAnUnfinishedExecutionAndDropsItsTimer() {
    put(ExecutionRecord.queued("e", "w", 1, "1", 0));
    me.transact(
        tx -> {
          tx.putTimer(new TimerRecord("e", 10));
          return null;
        });
    assertThat(me.<Boolean>transact(tx -> Units.cancel(tx, "e"))).isTrue();
    assertThat(me.<Boolean>transact(tx -> Units.cancel(tx, "e"))).isFalse();
    assertThat(me.<Boolean>transact(tx -> Units.cancel(tx, "missing"))).isFalse();
    assertThat(me.<java.util.OptionalLong>transact(tx -> tx.nextTimer())).isEmpty();
  }

  @Test
  void aSubmitWithATimeoutGetsATimerAtItsDeadlineAndASuspendNeverOutlivesIt() {
    long now = clock.wallMillis();
    me.transact(tx -> Units.submit(tx, "e", "w", 1, "1", 100, null));
    assertThat(me.<java.util.OptionalLong>transact(tx -> tx.nextTimer())).hasValue(now + 100);
    Units.Claimed c = (Units.Claimed) claim();
    Claims.Claim claim = Claims.Claim.of(c.execution());
    assertThat(me.<Boolean>transact(tx -> Units.suspend(tx, claim, null, now + 5_000))).isTrue();
    assertThat(me.<java.util.OptionalLong>transact(tx -> tx.nextTimer()))
        .as("the deadline comes before the wake")
        .hasValue(now + 100);
  }

  @Test
  void completingDropsTheDeadlineTimer() {
    me.transact(tx -> Units.submit(tx, "e", "w", 1, "1", 100, null));
    Units.Claimed c = (Units.Claimed) claim();
    assertThat(
            me.<Boolean>transact(
                tx -> Units.complete(tx, Claims.Claim.of(c.execution()), null, "2")))
        .isTrue();
    assertThat(me.<java.util.OptionalLong>transact(tx -> tx.nextTimer())).isEmpty();
  }

  @Test
  void aClaimReportsWhenTheOldestFinishedExecutionBecomesPurgeable() {
    long now = clock.wallMillis();
    put(
        ExecutionRecord.queued("old", "w", 1, "1", 0)
            .finished(ExecutionStatus.COMPLETED, "1", null, now - 10));
    put(
        ExecutionRecord.queued("new", "w", 1, "1", 0)
            .finished(ExecutionStatus.FAILED, null, null, now));
    Units.ClaimResult notYet = me.transact(tx -> Units.claim(tx, W, 10, Map.of()));
    assertThat(notYet).isEqualTo(new Units.Idle(java.util.OptionalLong.empty(), now + 1, false));
    assertThat(((Units.Idle) notYet).nextWake()).hasValue(now + 1);
    Units.ClaimResult due = me.transact(tx -> Units.claim(tx, W, 9, Map.of()));
    assertThat(due.purgeDue()).isTrue();
    assertThat(me.<Integer>transact(tx -> Units.purge(tx, 9, 500))).isEqualTo(1);
    assertThat(me.<java.util.Optional<ExecutionRecord>>transact(tx -> tx.execution("new")))
        .isPresent();
  }
}
