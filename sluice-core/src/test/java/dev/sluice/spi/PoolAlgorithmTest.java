/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LimiterConfig;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pure algorithm, driven with explicit store times: no threads, no clock, no store. */
class PoolAlgorithmTest {
  private static final long T0 = 1_000_000;

  private static PoolState pool(LimiterConfig config) {
    return PoolState.create(config, T0, 16);
  }

  private static <T> PoolOutcome<T> at(PoolState s, long now, PoolCommand<T> c) {
    return PoolAlgorithm.apply(s, c, PoolContext.at(now, 0));
  }

  @Test
  void aRefusedAcquireLeavesTheStateUntouched() {
    PoolState s = pool(LimiterConfig.builder().maxConcurrent(1).reservoir(3).build());
    at(s, T0, new PoolCommand.Acquire("a", 1, 1, -1, -1));
    s.markClean();
    PoolState.Scalars before = s.scalars();
    PoolOutcome<AcquireAnswer> refused = at(s, T0, new PoolCommand.Acquire("a", 2, 1, -1, 0));
    assertThat(refused.value()).isInstanceOf(AcquireAnswer.Refused.class);
    assertThat(s.isDirty()).isFalse();
    assertThat(s.scalars()).isEqualTo(before);
  }

  @Test
  void aReleaseGrantsTheHeadAndReportsItAsAGrantForItsOwner() {
    PoolState s = pool(LimiterConfig.builder().maxConcurrent(1).build());
    LeaseRecord held =
        ((AcquireAnswer.Granted) at(s, T0, new PoolCommand.Acquire("a", 1, 1, -1, -1)).value())
            .lease();
    AcquireAnswer queued = at(s, T0, new PoolCommand.Acquire("b", 7, 1, 5_000, -1)).value();
    assertThat(queued).isInstanceOf(AcquireAnswer.Queued.class);
    PoolOutcome<Boolean> release = at(s, T0 + 10, new PoolCommand.Release("a", held.id()));
    assertThat(release.value()).isTrue();
    assertThat(release.grants())
        .singleElement()
        .satisfies(
            g -> {
              assertThat(g.owner()).isEqualTo("b");
              assertThat(g.ownerRef()).isEqualTo(7);
              assertThat(g.id()).isEqualTo(((AcquireAnswer.Queued) queued).entryId());
              assertThat(g.expiresAt()).isEqualTo(T0 + 10 + 5_000);
              assertThat(g.fencingToken()).isGreaterThan(held.fencingToken());
            });
  }

  @Test
  void aReleaseByAnotherOwnerChangesNothing() {
    PoolState s = pool(LimiterConfig.builder().maxConcurrent(1).build());
    LeaseRecord held =
        ((AcquireAnswer.Granted) at(s, T0, new PoolCommand.Acquire("a", 1, 1, -1, -1)).value())
            .lease();
    assertThat(at(s, T0, new PoolCommand.Release("intruder", held.id())).value()).isFalse();
    assertThat(s.activeWeight()).isEqualTo(1);
  }

  @Test
  void deadOwnersLoseTheirLeasesAndQueueEntriesInTheSameTransition() {
    PoolState s = pool(LimiterConfig.builder().maxConcurrent(1).build());
    at(s, T0, new PoolCommand.Acquire("dead", 1, 1, -1, -1));
    at(s, T0, new PoolCommand.Acquire("dead", 2, 1, -1, -1));
    at(s, T0, new PoolCommand.Acquire("alive", 3, 1, -1, -1));
    PoolOutcome<Void> tick =
        PoolAlgorithm.apply(
            s, new PoolCommand.Tick("alive"), new PoolContext(T0 + 1, Set.of("dead"), 0));
    assertThat(tick.ended()).extracting(w -> w.owner()).containsExactly("dead");
    assertThat(tick.grants()).extracting(LeaseRecord::owner).containsExactly("alive");
    assertThat(s.leases()).extracting(LeaseRecord::owner).containsExactly("alive");
  }

  @Test
  void theNextDeadlineIsTheLatestOfEveryBlockingCondition() {
    PoolState s =
        pool(
            LimiterConfig.builder()
                .maxConcurrent(1)
                .minTime(Duration.ofMillis(50))
                .expiration(Duration.ofMillis(30))
                .build());
    at(s, T0, new PoolCommand.Acquire("a", 1, 1, 30, -1));
    PoolOutcome<AcquireAnswer> queued = at(s, T0, new PoolCommand.Acquire("b", 2, 1, 30, -1));
    assertThat(queued.nextDeadline()).as("spacing outlasts the expiry").isEqualTo(T0 + 50);
    PoolOutcome<AcquireAnswer> bounded = at(s, T0, new PoolCommand.Acquire("c", 3, 1, 30, 20));
    assertThat(bounded.nextDeadline()).as("the head decides, not the tail").isEqualTo(T0 + 50);
  }

  @Test
  void nothingWaitsMeansNoDeadline() {
    PoolState s = pool(LimiterConfig.builder().expiration(Duration.ofSeconds(1)).build());
    assertThat(at(s, T0, new PoolCommand.Acquire("a", 1, 1, 1000, -1)).nextDeadline())
        .isEqualTo(PoolState.NEVER);
  }

  @Test
  void refillCollapsesMissedWindowsAndKeepsPhase() {
    PoolState s =
        pool(
            LimiterConfig.builder()
                .reservoir(1)
                .reservoirRefresh(5, Duration.ofMillis(100))
                .build());
    PoolMachine.refill(s, T0 + 1_050);
    assertThat(s.reservoir()).isEqualTo(5);
    assertThat(s.nextRefreshAt()).isEqualTo(T0 + 1_100);
    assertThat((s.nextRefreshAt() - T0) % 100).isZero();
  }

  @Test
  void theTraceKeepsOnlyTheNewestEntries() {
    PoolState s = PoolState.create(LimiterConfig.builder().build(), T0, 3);
    for (int i = 0; i < 5; i++) {
      LeaseRecord l =
          ((AcquireAnswer.Granted) at(s, T0, new PoolCommand.Acquire("a", i, 1, -1, -1)).value())
              .lease();
      at(s, T0, new PoolCommand.Release("a", l.id()));
    }
    assertThat(s.trace().entries()).hasSize(3);
    assertThat(s.trace().entries().get(2).sequence()).isEqualTo(9);
  }

  private static LeaseRecord grantNow(PoolState s, long now, long ref) {
    return ((AcquireAnswer.Granted)
            at(s, now, new PoolCommand.Acquire("a", ref, 1, -1, -1)).value())
        .lease();
  }

  @Test
  void withdrawingAnUnstartedGrantGivesBackItsTokensAndSpacingSlot() {
    PoolState s =
        pool(LimiterConfig.builder().minTime(Duration.ofMillis(100)).reservoir(5).build());
    LeaseRecord l = grantNow(s, T0, 1);
    assertThat(s.reservoir()).isEqualTo(4);
    PoolOutcome<Integer> w = at(s, T0 + 1, new PoolCommand.Withdraw("a", Set.of(1L)));
    assertThat(w.value()).isEqualTo(1);
    assertThat(s.leases()).isEmpty();
    assertThat(s.reservoir()).isEqualTo(5);
    assertThat(s.nextAllowedAt()).isEqualTo(T0);
    assertThat(s.lastFencingToken()).as("fencing never goes back").isEqualTo(l.fencingToken());
  }

  @Test
  void aGrantWithdrawnAfterARefillOrALaterAdmissionKeepsWhatWasSpentSince() {
    PoolState s =
        pool(
            LimiterConfig.builder()
                .minTime(Duration.ofMillis(10))
                .reservoir(5)
                .reservoirRefresh(5, Duration.ofMillis(1_000))
                .build());
    LeaseRecord first = grantNow(s, T0, 1);
    LeaseRecord second = grantNow(s, T0 + 10, 2);
    at(s, T0 + 20, new PoolCommand.Withdraw("a", Set.of(1L)));
    assertThat(s.nextAllowedAt()).as("a later admission holds the slot").isEqualTo(T0 + 20);
    assertThat(s.reservoir()).isEqualTo(4);
    at(s, T0 + 1_000, new PoolCommand.Withdraw("a", Set.of(2L)));
    assertThat(s.reservoir()).as("the refill reset the balance").isEqualTo(5);
  }

  @Test
  void anUnlimitedPoolNearOverflowWaitsForAnExpiryInsteadOfSpinning() {
    PoolState s = pool(LimiterConfig.builder().minTime(Duration.ofMillis(10)).build());
    at(s, T0, new PoolCommand.Acquire("a", 1, Long.MAX_VALUE - 2, 500, -1));
    at(s, T0, new PoolCommand.Acquire("a", 2, 1, -1, -1));
    at(s, T0, new PoolCommand.Acquire("a", 3, 2, -1, -1));
    PoolOutcome<Void> tick = at(s, T0 + 10, new PoolCommand.Tick("a"));
    assertThat(tick.grants()).hasSize(1);
    assertThat(s.waiters()).hasSize(1);
    assertThat(tick.nextDeadline()).as("the big lease's expiry").isEqualTo(T0 + 500);
  }

  @Test
  void aSyncReportsAGrantThatExpiredBeforeItsOwnerLookedAsALostLease() {
    PoolState s = pool(LimiterConfig.builder().maxConcurrent(1).build());
    LeaseRecord held = grantNow(s, T0, 1);
    AcquireAnswer.Queued q =
        (AcquireAnswer.Queued) at(s, T0, new PoolCommand.Acquire("paused", 9, 1, 100, -1)).value();
    PoolOutcome<Boolean> release = at(s, T0 + 1, new PoolCommand.Release("a", held.id()));
    assertThat(release.concernedOwners()).containsExactly("paused");
    at(s, T0 + 500, new PoolCommand.Tick("a"));
    PoolOutcome<Void> sync =
        at(
            s,
            T0 + 600,
            new PoolCommand.Sync(
                "paused",
                java.util.List.of(
                    new PoolCommand.Sync.Pending(9, q.entryId(), q.queueDeadline()))));
    assertThat(sync.grants()).isEmpty();
    assertThat(sync.ended())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.reason()).isEqualTo(EndedRequest.Reason.LEASE_LOST);
              assertThat(e.entryId()).isEqualTo(q.entryId());
              assertThat(e.ownerRef()).isEqualTo(9);
            });
  }

  @Test
  void aSyncTellsATimedOutRequestFromAGrantedOne() {
    PoolState s = pool(LimiterConfig.builder().maxConcurrent(1).build());
    LeaseRecord held = grantNow(s, T0, 1);
    AcquireAnswer.Queued late =
        (AcquireAnswer.Queued) at(s, T0, new PoolCommand.Acquire("b", 5, 1, -1, 50)).value();
    AcquireAnswer.Queued lucky =
        (AcquireAnswer.Queued) at(s, T0, new PoolCommand.Acquire("b", 6, 1, -1, -1)).value();
    PoolOutcome<Void> tick = at(s, T0 + 60, new PoolCommand.Tick("a"));
    assertThat(tick.ended())
        .extracting(EndedRequest::reason)
        .containsExactly(EndedRequest.Reason.TIMED_OUT);
    at(s, T0 + 70, new PoolCommand.Release("a", held.id()));
    PoolOutcome<Void> sync =
        at(
            s,
            T0 + 80,
            new PoolCommand.Sync(
                "b",
                java.util.List.of(
                    new PoolCommand.Sync.Pending(5, late.entryId(), late.queueDeadline()),
                    new PoolCommand.Sync.Pending(6, lucky.entryId(), lucky.queueDeadline()))));
    assertThat(sync.grants()).extracting(LeaseRecord::ownerRef).containsExactly(6L);
    assertThat(sync.ended())
        .singleElement()
        .satisfies(e -> assertThat(e.reason()).isEqualTo(EndedRequest.Reason.TIMED_OUT));
  }

  @Test
  void anOutcomeSaysWhetherTheDeadlineMovedAndConcernsNoOneOnAPlainAdmission() {
    PoolState s =
        pool(LimiterConfig.builder().maxConcurrent(1).minTime(Duration.ofMillis(10)).build());
    PoolOutcome<AcquireAnswer> first = at(s, T0, new PoolCommand.Acquire("a", 1, 1, -1, -1));
    assertThat(first.deadlineMoved()).isFalse();
    assertThat(first.concernedOwners()).isEmpty();
    PoolOutcome<AcquireAnswer> queued = at(s, T0, new PoolCommand.Acquire("b", 2, 1, -1, -1));
    assertThat(queued.deadlineMoved()).as("capacity, not time, blocks b").isFalse();
    LeaseRecord l = ((AcquireAnswer.Granted) first.value()).lease();
    PoolOutcome<Boolean> release = at(s, T0 + 1, new PoolCommand.Release("a", l.id()));
    assertThat(release.deadlineMoved()).as("now spacing blocks b, until T0 + 10").isTrue();
    assertThat(release.nextDeadline()).isEqualTo(T0 + 10);
    assertThat(release.grants()).isEmpty();
  }
}
