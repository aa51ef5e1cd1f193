/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ControlStatus;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.PoolDrainingException;
import dev.sluice.StaleDrainException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The pool-wide drain: numbered, shared by every owner, kept while every client is closed. */
public abstract class DrainCases extends ControlCase {
  protected DrainCases(StoreFactory stores) {
    super(stores);
  }

  /** Waits on another thread for the drain of {@code generation} to settle. */
  private static CompletableFuture<Boolean> awaiting(Limiter limiter, long generation) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return limiter.maintenance().await(generation, SAFETY);
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
        });
  }

  @Test
  void aDrainRefusesNewWorkOfEveryOwner() throws Exception {
    Limiter first = open(cap(2));
    Limiter second = openSecondOwner(cap(2));
    ControlStatus status = first.maintenance().drain();
    assertThat(status.generation()).isEqualTo(1);
    assertThat(status.draining()).isTrue();
    Throwable refused = awaitFailure(second.schedule(() -> 1));
    assertThat(refused).isInstanceOf(PoolDrainingException.class);
    assertThat(((PoolDrainingException) refused).generation()).isEqualTo(1);
    assertThatThrownBy(() -> first.acquire(1)).isInstanceOf(PoolDrainingException.class);
    assertThatThrownBy(() -> second.tryAcquire(1)).isInstanceOf(PoolDrainingException.class);
    assertThat(second.maintenance().drain().generation()).as("idempotent").isEqualTo(1);
  }

  @Test
  void workAcceptedBeforeTheDrainFinishesAndTheDrainSettles() throws Exception {
    Limiter limiter = open(cap(1));
    Limiter other = openSecondOwner(cap(1));
    Lease held = limiter.acquire(1);
    CompletableFuture<Integer> queued = limiter.schedule(() -> 3);
    settled(limiter);
    long generation = limiter.maintenance().drain().generation();
    assertThat(limiter.maintenance().status().settled()).isFalse();
    assertThat(other.maintenance().await(generation, Duration.ofMillis(1))).isFalse();
    CompletableFuture<Boolean> awaited = awaiting(other, generation);
    held.close();
    assertThat(await(queued)).isEqualTo(3);
    assertThat(await(awaited)).as("woken by the other owner's release").isTrue();
    assertThat(limiter.maintenance().status().settled()).isTrue();
  }

  @Test
  void aWaitForADrainSettlesWhenTheLastLeaseExpires() throws Exception {
    Limiter limiter =
        open(LimiterConfig.builder().maxConcurrent(1).expiration(Duration.ofSeconds(30)).build());
    // A holder that hangs: its lease ends by expiring, which no owner announces.
    Lease hung = limiter.acquire(1);
    long generation = limiter.maintenance().drain().generation();
    assertThat(limiter.maintenance().await(generation, Duration.ofMillis(1))).isFalse();
    long now = clock.monotonicNanos();
    long expiry = now + Duration.ofSeconds(30).toNanos();
    assertThat(clock.pendingDueNanos())
        .as("nothing else wakes at the expiry")
        .doesNotContain(expiry);
    CompletableFuture<Boolean> awaited = awaiting(limiter, generation);
    // The wait arms one timer, at the lease's expiry, and sleeps until then.
    clock.awaitTimerDue(expiry, expiry, SAFETY);
    clock.advance(Duration.ofSeconds(29));
    assertThat(limiter.maintenance().status().settled()).isFalse();
    clock.advance(Duration.ofSeconds(1));
    assertThat(await(awaited)).as("woken by the expiry").isTrue();
    assertThat(clock.pendingTimers()).as("no timer outlives the wait").isZero();
    hung.close();
  }

  @Test
  void aStaleGenerationCannotResumeANewerDrain() throws Exception {
    Limiter limiter = open(cap(1));
    long first = limiter.maintenance().drain().generation();
    assertThat(limiter.maintenance().resume(first).draining()).isFalse();
    limiter.acquire(1).close();
    long second = limiter.maintenance().drain().generation();
    assertThat(second).isEqualTo(first + 1);
    assertThatThrownBy(() -> limiter.maintenance().resume(first))
        .isInstanceOf(StaleDrainException.class)
        .hasMessageContaining("generation " + first);
    assertThatThrownBy(() -> limiter.maintenance().await(first, SAFETY))
        .isInstanceOf(StaleDrainException.class);
    assertThat(limiter.maintenance().status().draining()).isTrue();
    assertThatThrownBy(() -> limiter.maintenance().resume(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("generation");
  }

  @Test
  void aResumeByAnotherOwnerEndsAWaitWithAStaleGeneration() throws Exception {
    Limiter limiter = open(cap(1));
    Limiter other = openSecondOwner(cap(1));
    Lease held = limiter.acquire(1);
    long generation = limiter.maintenance().drain().generation();
    CompletableFuture<Boolean> awaited = awaiting(limiter, generation);
    other.maintenance().resume(generation);
    assertThat(awaitFailure(awaited)).isInstanceOf(StaleDrainException.class);
    held.close();
    limiter.acquire(1).close();
  }

  @Test
  void aDrainSurvivesEveryClientClosing() throws Exception {
    Limiter first = open(cap(1));
    long generation = first.maintenance().drain().generation();
    first.close();
    Limiter second = open(cap(1));
    ControlStatus status = second.maintenance().status();
    assertThat(status.generation()).isEqualTo(generation);
    assertThat(status.draining()).isTrue();
    assertThat(awaitFailure(second.schedule(() -> 1))).isInstanceOf(PoolDrainingException.class);
    second.maintenance().resume(generation);
    assertThat(await(second.schedule(() -> 1))).isEqualTo(1);
  }
}
