/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.TimerRecord;
import java.util.List;
import java.util.Optional;
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
    assertThat(Claims.fire(Optional.of(waiting), timer, 99)).isEmpty();
    Optional<ExecutionRecord> fired = Claims.fire(Optional.of(waiting), timer, 150);
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
    assertThat(Claims.fire(Optional.of(cancelled), new TimerRecord("e", 1), 50)).isEmpty();
    assertThat(Claims.fire(Optional.empty(), new TimerRecord("e", 1), 50)).isEmpty();
  }

  @Test
  void pickTakesTheFirstTheRuntimeAccepts() {
    ExecutionRecord a = ExecutionRecord.queued("a", "other", 1, "1", 1);
    ExecutionRecord b = ExecutionRecord.queued("b", "w", 1, "1", 2);
    assertThat(Claims.pick(List.of(a, b), e -> e.workflow().equals("w"))).contains(b);
    assertThat(Claims.pick(List.of(a), e -> false)).isEmpty();
  }

  @Test
  void submitCreatesReturnsOrConflicts() {
    assertThat(Claims.submit(Optional.empty(), "e", "w", 1, "\"in\"", 5))
        .isInstanceOf(Claims.Create.class);
    assertThat(Claims.submit(Optional.of(queued), "e", "w", 2, "\"in\"", 5))
        .isEqualTo(new Claims.Existing(queued));
    assertThat(Claims.submit(Optional.of(queued), "e", "w", 1, "\"other\"", 5))
        .isInstanceOfSatisfying(
            Claims.Conflict.class, c -> assertThat(c.message()).contains("'e'", "another input"));
    assertThat(Claims.submit(Optional.of(queued), "e", "v", 1, "\"in\"", 5))
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
