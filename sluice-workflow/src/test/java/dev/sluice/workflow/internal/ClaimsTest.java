/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.spi.ClaimRule;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.TimerRecord;
import dev.sluice.workflow.spi.WorkflowVersion;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class ClaimsTest {
  private final ExecutionRecord queued = ExecutionRecord.queued("e", "w", 1, "\"in\"", 10);

  @Test
  void aClaimHoldsOnlyWhileRunningWithItsOwnerAndEpoch() {
    ExecutionRecord running = queued.claimedBy("o1", 20);
    Claims.Claim claim = Claims.Claim.of(running);
    assertThat(claim.epoch()).isEqualTo(1);
    assertThat(Claims.holds(running, claim)).isTrue();
    ExecutionRecord again = Claims.takeOver(running, 30).claimedBy("o2", 40);
    assertThat(again.claimEpoch()).isEqualTo(2);
    assertThat(Claims.holds(again, claim)).isFalse();
    assertThat(Claims.holds(running.finished(ExecutionStatus.CANCELLED, null, null, 50), claim))
        .isFalse();
  }

  @Test
  void aDueTimerQueuesAWaitingExecutionAtItsDueTime() {
    ExecutionRecord waiting = queued.claimedBy("o", 20).unclaimed(ExecutionStatus.WAITING, 25);
    TimerRecord timer = new TimerRecord("e", 100);
    assertThat(Claims.fire(Optional.of(waiting), timer, 99).write()).isEmpty();
    Claims.Fired f = Claims.fire(Optional.of(waiting), timer, 150);
    assertThat(f.nextTimer()).as("no deadline, no timer left").isEmpty();
    Optional<ExecutionRecord> fired = f.write();
    assertThat(fired)
        .hasValueSatisfying(
            e -> {
              assertThat(e.status()).isEqualTo(ExecutionStatus.QUEUED);
              assertThat(e.queuedAt()).isEqualTo(100);
            });
  }

  @Test
  void aTimerOfAFinishedOrMissingExecutionOnlyGoesAway() {
    ExecutionRecord cancelled = queued.finished(ExecutionStatus.CANCELLED, null, null, 30);
    assertThat(Claims.fire(Optional.of(cancelled), new TimerRecord("e", 1), 50))
        .isEqualTo(new Claims.Fired(Optional.empty(), OptionalLong.empty()));
    assertThat(Claims.fire(Optional.empty(), new TimerRecord("e", 1), 50))
        .isEqualTo(new Claims.Fired(Optional.empty(), OptionalLong.empty()));
  }

  @Test
  void aWakeBeforeTheDeadlineQueuesAndLeavesATimerAtTheDeadline() {
    ExecutionRecord timed = ExecutionRecord.queued("e", "w", 1, "1", 10, 500);
    ExecutionRecord waiting = timed.claimedBy("o", 20).unclaimed(ExecutionStatus.WAITING, 25);
    assertThat(Claims.timerDue(waiting, 100)).isEqualTo(100);
    assertThat(Claims.timerDue(waiting, 900)).as("the deadline comes first").isEqualTo(500);
    Claims.Fired f = Claims.fire(Optional.of(waiting), new TimerRecord("e", 100), 100);
    assertThat(f.write().orElseThrow().status()).isEqualTo(ExecutionStatus.QUEUED);
    assertThat(f.nextTimer()).hasValue(500);
  }

  @Test
  void aPassedDeadlineEndsAnUnfinishedExecutionWhereverItStands() {
    ExecutionRecord timed = ExecutionRecord.queued("e", "w", 1, "1", 10, 500);
    for (ExecutionRecord e :
        List.of(
            timed,
            timed.claimedBy("o", 20),
            timed.claimedBy("o", 20).unclaimed(ExecutionStatus.WAITING, 30))) {
      assertThat(Claims.overdue(e, 499)).isFalse();
      assertThat(Claims.overdue(e, 500)).isTrue();
      Claims.Fired f = Claims.fire(Optional.of(e), new TimerRecord("e", 500), 500);
      assertThat(f.write().orElseThrow().status()).isEqualTo(ExecutionStatus.TIMED_OUT);
      assertThat(f.write().orElseThrow().updatedAt()).isEqualTo(500);
      assertThat(f.nextTimer()).isEmpty();
    }
    assertThat(Claims.overdue(timed.finished(ExecutionStatus.COMPLETED, "1", null, 20), 900))
        .as("a finished execution never times out")
        .isFalse();
    assertThat(Claims.overdue(queued, Long.MAX_VALUE - 1)).as("no deadline").isFalse();
  }

  @Test
  void aDeadlineIsCreationPlusTheTimeoutAndSaturates() {
    assertThat(Claims.deadline(1_000, 0)).isEqualTo(ExecutionRecord.NO_DEADLINE);
    assertThat(Claims.deadline(1_000, 250)).isEqualTo(1_250);
    assertThat(Claims.deadline(Long.MAX_VALUE - 10, 100)).isLessThan(ExecutionRecord.NO_DEADLINE);
    Claims.SubmitDecision d = Claims.submit(Optional.empty(), "e", "w", 1, "1", 1_000, 250);
    assertThat(((Claims.Create) d).execution().deadlineAt()).isEqualTo(1_250);
  }

  @Test
  void aFinishedExecutionIsPurgeableOneMillisecondAfterItsRetention() {
    ExecutionRecord done = queued.finished(ExecutionStatus.COMPLETED, "1", null, 100);
    long at = Claims.purgeableAt(Optional.of(done), 50);
    assertThat(at).isEqualTo(151);
    assertThat(Claims.expired(done, at - 50)).isTrue();
    assertThat(Claims.expired(done, at - 1 - 50)).isFalse();
    assertThat(Claims.purgeableAt(Optional.of(queued), 50)).isEqualTo(Long.MAX_VALUE);
    assertThat(Claims.purgeableAt(Optional.empty(), 50)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void theClaimRuleTakesTheFirstTheRuntimeAccepts() {
    ExecutionRecord a = ExecutionRecord.queued("a", "other", 1, "1", 1);
    ExecutionRecord b = ExecutionRecord.queued("b", "w", 1, "1", 2);
    Set<WorkflowVersion> w = Set.of(new WorkflowVersion("w", 1));
    assertThat(Stream.of(b, a).filter(e -> ClaimRule.eligible(e, w, 0)).sorted(ClaimRule.ORDER))
        .containsExactly(b);
    assertThat(Stream.of(a).filter(e -> ClaimRule.eligible(e, Set.of(), 0))).isEmpty();
  }

  @Test
  void submitCreatesReturnsOrConflicts() {
    assertThat(Claims.submit(Optional.empty(), "e", "w", 1, "\"in\"", 5, 0))
        .isInstanceOf(Claims.Create.class);
    assertThat(Claims.submit(Optional.of(queued), "e", "w", 2, "\"in\"", 5, 0))
        .isEqualTo(new Claims.Existing(queued));
    assertThat(Claims.submit(Optional.of(queued), "e", "w", 1, "\"other\"", 5, 0))
        .isInstanceOfSatisfying(
            Claims.Conflict.class, c -> assertThat(c.message()).contains("'e'", "another input"));
    assertThat(Claims.submit(Optional.of(queued), "e", "v", 1, "\"in\"", 5, 0))
        .isInstanceOfSatisfying(
            Claims.Conflict.class, c -> assertThat(c.message()).contains("'w'", "'v'"));
  }

  @Test
  void onlyFinishedExecutionsExpire() {
    assertThat(Claims.expired(queued, 1_000)).isFalse();
    assertThat(Claims.expired(queued.finished(ExecutionStatus.COMPLETED, "1", null, 10), 11))
        .isTrue();
    assertThat(Claims.expired(queued.finished(ExecutionStatus.COMPLETED, "1", null, 10), 10))
        .isFalse();
  }
}
