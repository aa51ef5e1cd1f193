/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.AttemptClassifier;
import dev.sluice.AttemptTimeoutException;
import dev.sluice.ExecuteOptions;
import dev.sluice.ExecutionContext;
import dev.sluice.ExecutionTimeoutException;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterClosedException;
import dev.sluice.SluiceException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/**
 * How a managed execution ends early: its deadline, an attempt's timeout, a cancelled future, a
 * classifier that fails, a close. Each ends the call at once, cancels the running attempt's context
 * and stops retries, while a running attempt keeps its lease until its task returns.
 */
public abstract class ExecutionEndCases extends ConformanceCase {
  private static final ExecuteOptions RETRYING =
      ExecuteOptions.builder()
          .replaySafe(true)
          .classifier(AttemptClassifier.exceptionsAreServiceFailures())
          .retry(ExecutionCases.exact(3, Duration.ofSeconds(10)))
          .build();

  /**
   * Creates the cases.
   *
   * @param stores the store under test
   */
  protected ExecutionEndCases(StoreFactory stores) {
    super(stores);
  }

  /**
   * Checks that the one unit of {@code limiter} is held now, and is released once the task ends.
   */
  private void assertHeldUntilReleased(Limiter limiter, AttemptScript script) throws Exception {
    assertThat(limiter.tryAcquire(1)).as("the attempt still holds its lease").isEmpty();
    assertThat(limiter.inspect().activeWeight()).isEqualTo(1);
    script.release();
    // Granted only by the attempt's release: the unit is the pool's only one.
    try (Lease next = limiter.acquire(1)) {
      assertThat(next.admission().weight()).isEqualTo(1);
    }
  }

  @Test
  void anAttemptTimeoutFailsAtOnceStopsRetriesAndKeepsTheLeaseUntilTheTaskEnds() throws Exception {
    Limiter limiter = open(cap(1));
    AttemptScript script = AttemptScript.waiting(clock);
    ExecuteOptions options =
        ExecuteOptions.builder()
            .replaySafe(true)
            .classifier(AttemptClassifier.exceptionsAreServiceFailures())
            .attemptTimeout(Duration.ofSeconds(1))
            .build();
    CompletableFuture<String> f = limiter.execute(script, options);
    ExecutionContext attempt = script.awaitStart();
    clock.advance(Duration.ofMillis(999));
    assertThat(f).isNotDone();
    clock.advance(Duration.ofMillis(1));
    Throwable failure = awaitFailure(f);
    assertThat(failure).isInstanceOf(AttemptTimeoutException.class);
    assertThat(((AttemptTimeoutException) failure).attempt()).isEqualTo(1);
    assertThat(attempt.cancelled()).isTrue();
    assertHeldUntilReleased(limiter, script);
    assertThat(script.attempts()).isEqualTo(1);
  }

  @Test
  void theDeadlineFailsARunningAttemptAtOnceAndItKeepsItsLease() throws Exception {
    Limiter limiter = open(cap(1));
    AttemptScript script = AttemptScript.waiting(clock);
    ExecuteOptions options =
        ExecuteOptions.builder().deadline(Duration.ofSeconds(2)).noAttemptTimeout().build();
    CompletableFuture<String> f = limiter.execute(script, options);
    ExecutionContext attempt = script.awaitStart();
    CompletionStage<Void> cancelled = attempt.cancellation();
    clock.advance(Duration.ofSeconds(2));
    assertThat(awaitFailure(f))
        .isInstanceOf(ExecutionTimeoutException.class)
        .hasMessageContaining("deadline of PT2S")
        .as("no attempt failed")
        .hasNoCause();
    await(cancelled.toCompletableFuture());
    assertHeldUntilReleased(limiter, script);
  }

  /** Retries 500 ms, then 1 s, 2 s… after a failure, within a deadline of 1 s. */
  private static final ExecuteOptions DEADLINE_OF_ONE_SECOND =
      ExecuteOptions.builder()
          .replaySafe(true)
          .classifier(AttemptClassifier.exceptionsAreServiceFailures())
          .retry(ExecutionCases.exact(5, Duration.ofSeconds(10)))
          .deadline(Duration.ofSeconds(1))
          .build();

  /** Waits for the first attempt and for the timer of its 500 ms delay; returns the start. */
  private long awaitFirstDelay(AttemptScript script) throws InterruptedException {
    script.awaitStart();
    long start = clock.monotonicNanos();
    clock.awaitTimerDue(start + 500_000_000L, start + 500_000_000L, SAFETY);
    return start;
  }

  @Test
  void aRetryThatCouldNotStartBeforeTheDeadlineIsNotWaitedFor() throws Exception {
    Limiter limiter = open(cap(1));
    AttemptScript script = AttemptScript.failing(clock);
    CompletableFuture<String> f = limiter.execute(script, DEADLINE_OF_ONE_SECOND);
    long start = awaitFirstDelay(script);
    clock.advance(Duration.ofMillis(500));
    script.awaitStart();
    // The third attempt would start a second later, past the deadline: the second's own failure
    // is the execution's now, without waiting for the deadline.
    Throwable failure = awaitFailure(f);
    assertThat(failure)
        .isInstanceOf(AttemptScript.ServiceDown.class)
        .hasMessageContaining("attempt 2");
    assertThat(clock.monotonicNanos()).isEqualTo(start + 500_000_000L);
    assertThat(clock.pendingTimers()).as("no retry, no deadline timer").isZero();
    assertThat(script.attempts()).isEqualTo(2);
  }

  @Test
  void theDeadlineEndsARetryThatWaitsInTheQueueWithTheLastFailureAsItsCause() throws Exception {
    Limiter limiter = open(cap(1));
    AttemptScript script = AttemptScript.failing(clock);
    CompletableFuture<String> f = limiter.execute(script, DEADLINE_OF_ONE_SECOND);
    long start = awaitFirstDelay(script);
    // Another holder takes the pool's one unit during the delay: the retry queues behind it.
    Lease holder = limiter.acquire(1);
    clock.advance(Duration.ofMillis(500));
    settled(limiter);
    clock.advance(Duration.ofMillis(500));
    assertThat(awaitFailure(f))
        .isInstanceOf(ExecutionTimeoutException.class)
        .as("what the retries were trying to get past")
        .hasCauseInstanceOf(AttemptScript.ServiceDown.class)
        .hasMessageContaining("the last failure");
    assertThat(script.attempts()).isEqualTo(1);
    holder.close();
  }

  @Test
  void cancellingARunningExecutionCancelsItsAttemptAndStopsRetries() throws Exception {
    Limiter limiter = open(cap(1));
    AttemptScript script = AttemptScript.waiting(clock);
    CompletableFuture<String> f = limiter.execute(script, RETRYING);
    ExecutionContext attempt = script.awaitStart();
    assertThat(f.cancel(true)).isTrue();
    assertThat(f).isCancelled();
    assertThat(attempt.cancelled()).isTrue();
    assertThat(attempt.cancellation().toCompletableFuture()).isDone();
    assertHeldUntilReleased(limiter, script);
    assertThat(clock.pendingTimers()).isZero();
    assertThat(script.attempts()).isEqualTo(1);
  }

  @Test
  void cancellingDuringTheDelayStopsTheRetry() throws Exception {
    Limiter limiter = open(cap(1));
    AttemptScript script = AttemptScript.failing(clock);
    CompletableFuture<String> f = limiter.execute(script, RETRYING);
    script.awaitStart();
    long now = clock.monotonicNanos();
    clock.awaitTimerDue(now + 500_000_000L, now + 500_000_000L, SAFETY);
    assertThat(f.cancel(false)).isTrue();
    assertThat(clock.pendingTimers()).isZero();
    clock.advance(Duration.ofSeconds(10));
    assertThat(script.attempts()).isEqualTo(1);
  }

  @Test
  void cancellingAQueuedExecutionWithdrawsItsAttempt() throws Exception {
    Limiter limiter = open(cap(1));
    Lease holder = limiter.acquire(1);
    AttemptScript script = new AttemptScript(clock, ctx -> "ran");
    CompletableFuture<String> f = limiter.execute(script, RETRYING);
    settled(limiter);
    assertThat(f.cancel(false)).isTrue();
    holder.close();
    try (Lease next = limiter.acquire(1)) {
      assertThat(script.attempts()).as("the withdrawn attempt never ran").isZero();
    }
    assertThat(limiter.inspect().waiters()).isEmpty();
  }

  @Test
  void aClassifierThatThrowsOrAnswersNullFailsThatCallOnlyAndReleasesTheLease() throws Exception {
    Limiter limiter = open(cap(1));
    IllegalStateException broken = new IllegalStateException("classifier bug");
    ExecuteOptions throwing =
        ExecuteOptions.builder()
            .replaySafe(true)
            .classifier(
                (r, f) -> {
                  throw broken;
                })
            .build();
    AttemptScript script = AttemptScript.failing(clock);
    Throwable failure = awaitFailure(limiter.execute(script, throwing));
    assertThat(failure).isSameAs(broken);
    assertThat(failure.getSuppressed()).hasSize(1);
    assertThat(failure.getSuppressed()[0]).isInstanceOf(AttemptScript.ServiceDown.class);
    ExecuteOptions nulls =
        ExecuteOptions.builder().replaySafe(true).classifier((r, f) -> null).build();
    assertThat(awaitFailure(limiter.execute(ctx -> "ok", nulls)))
        .isInstanceOf(SluiceException.class)
        .hasMessageContaining("answered null");
    assertThat(script.attempts()).isEqualTo(1);
    assertThat(limiter.inspect().activeWeight()).isZero();
    String after = await(limiter.execute(ctx -> "still serving"));
    assertThat(after).isEqualTo("still serving");
  }

  @Test
  void aCloseStopsRetriesAndADrainLetsThemFinish() throws Exception {
    Limiter closing = open(cap(1));
    AttemptScript script = AttemptScript.failing(clock);
    CompletableFuture<String> stopped = closing.execute(script, RETRYING);
    script.awaitStart();
    long now = clock.monotonicNanos();
    clock.awaitTimerDue(now + 500_000_000L, now + 500_000_000L, SAFETY);
    closing.close();
    assertThat(awaitFailure(stopped)).isInstanceOf(LimiterClosedException.class);
    assertThat(script.attempts()).isEqualTo(1);

    Limiter draining = open(cap(1));
    AttemptScript flaky =
        new AttemptScript(
            clock,
            ctx -> {
              if (ctx.attempt() == 1) {
                throw new AttemptScript.ServiceDown(1);
              }
              return "drained";
            });
    CompletableFuture<String> finishes = draining.execute(flaky, RETRYING);
    flaky.awaitStart();
    now = clock.monotonicNanos();
    clock.awaitTimerDue(now + 500_000_000L, now + 500_000_000L, SAFETY);
    CompletableFuture<Void> drained = draining.drainAndCloseAsync().toCompletableFuture();
    assertThat(drained).isNotDone();
    clock.advance(Duration.ofMillis(500));
    assertThat(await(finishes)).isEqualTo("drained");
    await(drained);
    assertThat(flaky.attempts()).isEqualTo(2);
  }
}
