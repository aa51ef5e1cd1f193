/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LimiterConfig;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.TransitionContext;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pure transitions, driven with explicit store times: no threads, no clock, no store. */
class TransitionsTest {
  private static final long T0 = 1_000_000;

  private static PoolState pool(LimiterConfig config) {
    return PoolState.create(config, T0, 16);
  }

  private static <T> Applied<T> at(PoolState s, long now, dev.sluice.spi.Transition<Applied<T>> t) {
    return t.apply(s, TransitionContext.at(now));
  }

  @Test
  void aRefusedAcquireLeavesTheStateUntouched() {
    PoolState s = pool(LimiterConfig.builder().maxConcurrent(1).reservoir(3).build());
    at(s, T0, Transitions.acquire("a", 1, 1, -1, -1));
    s.markClean();
    PoolState.Scalars before = s.scalars();
    Applied<AcquireResult> refused = at(s, T0, Transitions.acquire("a", 2, 1, -1, 0));
    assertThat(refused.value()).isInstanceOf(AcquireResult.Refused.class);
    assertThat(s.isDirty()).isFalse();
    assertThat(s.scalars()).isEqualTo(before);
  }

  @Test
  void aReleaseGrantsTheHeadAndReportsItAsAGrantForItsOwner() {
    PoolState s = pool(LimiterConfig.builder().maxConcurrent(1).build());
    LeaseRecord held =
        ((AcquireResult.Granted) at(s, T0, Transitions.acquire("a", 1, 1, -1, -1)).value()).lease();
    AcquireResult queued = at(s, T0, Transitions.acquire("b", 7, 1, 5_000, -1)).value();
    assertThat(queued).isInstanceOf(AcquireResult.Queued.class);
    Applied<Boolean> release = at(s, T0 + 10, Transitions.release(held.id(), "a"));
    assertThat(release.value()).isTrue();
    assertThat(release.grants())
        .singleElement()
        .satisfies(
            g -> {
              assertThat(g.owner()).isEqualTo("b");
              assertThat(g.ownerRef()).isEqualTo(7);
              assertThat(g.id()).isEqualTo(((AcquireResult.Queued) queued).entryId());
              assertThat(g.expiresAt()).isEqualTo(T0 + 10 + 5_000);
              assertThat(g.fencingToken()).isGreaterThan(held.fencingToken());
            });
  }

  @Test
  void aReleaseByAnotherOwnerChangesNothing() {
    PoolState s = pool(LimiterConfig.builder().maxConcurrent(1).build());
    LeaseRecord held =
        ((AcquireResult.Granted) at(s, T0, Transitions.acquire("a", 1, 1, -1, -1)).value()).lease();
    assertThat(at(s, T0, Transitions.release(held.id(), "intruder")).value()).isFalse();
    assertThat(s.activeWeight()).isEqualTo(1);
  }

  @Test
  void deadOwnersLoseTheirLeasesAndQueueEntriesInTheSameTransition() {
    PoolState s = pool(LimiterConfig.builder().maxConcurrent(1).build());
    at(s, T0, Transitions.acquire("dead", 1, 1, -1, -1));
    at(s, T0, Transitions.acquire("dead", 2, 1, -1, -1));
    at(s, T0, Transitions.acquire("alive", 3, 1, -1, -1));
    Applied<Void> tick = Transitions.tick().apply(s, new TransitionContext(T0 + 1, Set.of("dead")));
    assertThat(tick.dropped()).extracting(w -> w.owner()).containsExactly("dead");
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
    at(s, T0, Transitions.acquire("a", 1, 1, 30, -1));
    Applied<AcquireResult> queued = at(s, T0, Transitions.acquire("b", 2, 1, 30, -1));
    assertThat(queued.nextDeadline()).as("spacing outlasts the expiry").isEqualTo(T0 + 50);
    Applied<AcquireResult> bounded = at(s, T0, Transitions.acquire("c", 3, 1, 30, 20));
    assertThat(bounded.nextDeadline()).as("the head decides, not the tail").isEqualTo(T0 + 50);
  }

  @Test
  void nothingWaitsMeansNoDeadline() {
    PoolState s = pool(LimiterConfig.builder().expiration(Duration.ofSeconds(1)).build());
    assertThat(at(s, T0, Transitions.acquire("a", 1, 1, 1000, -1)).nextDeadline())
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
          ((AcquireResult.Granted) at(s, T0, Transitions.acquire("a", i, 1, -1, -1)).value())
              .lease();
      at(s, T0, Transitions.release(l.id(), "a"));
    }
    assertThat(s.trace().entries()).hasSize(3);
    assertThat(s.trace().entries().get(2).sequence()).isEqualTo(9);
  }

  private static LeaseRecord grantNow(PoolState s, long now, long ref) {
    return ((AcquireResult.Granted) at(s, now, Transitions.acquire("a", ref, 1, -1, -1)).value())
        .lease();
  }

  @Test
  void withdrawingAnUnstartedGrantGivesBackItsTokensAndSpacingSlot() {
    PoolState s =
        pool(LimiterConfig.builder().minTime(Duration.ofMillis(100)).reservoir(5).build());
    LeaseRecord l = grantNow(s, T0, 1);
    assertThat(s.reservoir()).isEqualTo(4);
    Applied<Integer> w = at(s, T0 + 1, Transitions.withdraw(java.util.List.of(1L), "a"));
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
    at(s, T0 + 20, Transitions.withdraw(java.util.List.of(1L), "a"));
    assertThat(s.nextAllowedAt()).as("a later admission holds the slot").isEqualTo(T0 + 20);
    assertThat(s.reservoir()).isEqualTo(4);
    at(s, T0 + 1_000, Transitions.withdraw(java.util.List.of(2L), "a"));
    assertThat(s.reservoir()).as("the refill reset the balance").isEqualTo(5);
  }

  @Test
  void anUnlimitedPoolNearOverflowWaitsForAnExpiryInsteadOfSpinning() {
    PoolState s = pool(LimiterConfig.builder().minTime(Duration.ofMillis(10)).build());
    at(s, T0, Transitions.acquire("a", 1, Long.MAX_VALUE - 2, 500, -1));
    at(s, T0, Transitions.acquire("a", 2, 1, -1, -1));
    at(s, T0, Transitions.acquire("a", 3, 2, -1, -1));
    Applied<Void> tick = at(s, T0 + 10, Transitions.tick());
    assertThat(tick.grants()).hasSize(1);
    assertThat(s.waiters()).hasSize(1);
    assertThat(tick.nextDeadline()).as("the big lease's expiry").isEqualTo(T0 + 500);
  }
}
