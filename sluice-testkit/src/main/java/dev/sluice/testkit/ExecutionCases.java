/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.AttemptClassifier;
import dev.sluice.AttemptOutcome;
import dev.sluice.ExecuteOptions;
import dev.sluice.ExecutionContext;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.RetryPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Managed execution's retries: when an attempt is tried again, how long the delays are, what each
 * attempt spends, and what the attempts of one operation share. Time moves only on the manual
 * clock; a test waits for a retry's timer to be armed before it moves time past it.
 */
public abstract class ExecutionCases extends ConformanceCase {
  private static final AttemptClassifier TRANSIENT =
      AttemptClassifier.exceptionsAreServiceFailures();

  /**
   * Creates the cases.
   *
   * @param stores the store under test
   */
  protected ExecutionCases(StoreFactory stores) {
    super(stores);
  }

  /** Retries with exact delays: 500 ms doubling to at most {@code cap}, no jitter. */
  static RetryPolicy exact(int attempts, Duration cap) {
    return RetryPolicy.builder()
        .maxAttempts(attempts)
        .delays(Duration.ofMillis(500), cap)
        .jitter(0)
        .build();
  }

  /**
   * Waits until a retry's timer is armed between {@code lo} and {@code hi} from now, moves time to
   * it, and returns the delay.
   */
  Duration advanceToRetry(Duration lo, Duration hi) throws InterruptedException {
    long now = clock.monotonicNanos();
    long due = clock.awaitTimerDue(now + lo.toNanos(), now + hi.toNanos(), SAFETY);
    clock.advance(Duration.ofNanos(due - now));
    return Duration.ofNanos(due - now);
  }

  @Test
  void anAttemptIsRetriedOnlyWhenReplaySafeTransientAndNotForbidden() throws Exception {
    Limiter limiter = open(cap(1));
    ExecuteOptions.Builder base = ExecuteOptions.builder().retry(exact(3, Duration.ofSeconds(10)));
    List<ExecuteOptions> once =
        List.of(
            base.replaySafe(false).classifier(TRANSIENT).build(),
            base.replaySafe(true).classifier(AttemptClassifier.standard()).build(),
            base.replaySafe(true)
                .classifier((r, f) -> AttemptOutcome.serviceFailure().withoutRetry())
                .build(),
            base.replaySafe(true)
                .classifier((r, f) -> AttemptOutcome.throttle().withoutRetry())
                .build());
    for (ExecuteOptions options : once) {
      AttemptScript script = AttemptScript.failing(clock);
      Throwable failure = awaitFailure(limiter.execute(script, options));
      assertThat(failure).isInstanceOf(AttemptScript.ServiceDown.class);
      assertThat(script.attempts()).as("attempts with %s", options).isEqualTo(1);
      assertThat(clock.pendingTimers()).as("no retry armed").isZero();
    }
    // The last throttle, though not retried, started the pool's shared cooldown of 500 ms.
    clock.advance(Duration.ofMillis(500));
    AttemptScript script =
        new AttemptScript(
            clock,
            ctx -> {
              if (ctx.attempt() == 1) {
                throw new AttemptScript.ServiceDown(1);
              }
              return "ok";
            });
    CompletableFuture<String> retried =
        limiter.execute(script, base.replaySafe(true).classifier(TRANSIENT).build());
    script.awaitStart();
    assertThat(advanceToRetry(Duration.ofMillis(500), Duration.ofMillis(500)))
        .isEqualTo(Duration.ofMillis(500));
    assertThat(await(retried)).isEqualTo("ok");
    assertThat(script.attempts()).isEqualTo(2);
  }

  @Test
  void theRetryPolicysFilterCanRefuseAnException() throws Exception {
    Limiter limiter = open(cap(1));
    RetryPolicy onlyIo =
        RetryPolicy.builder().maxAttempts(3).retryOn(e -> e instanceof java.io.IOException).build();
    AttemptScript script = AttemptScript.failing(clock);
    ExecuteOptions options =
        ExecuteOptions.builder().replaySafe(true).classifier(TRANSIENT).retry(onlyIo).build();
    assertThat(awaitFailure(limiter.execute(script, options)))
        .isInstanceOf(AttemptScript.ServiceDown.class);
    assertThat(script.attempts()).isEqualTo(1);
  }

  @Test
  void delaysDoubleToTheCapAndTheLastFailureReachesTheCaller() throws Exception {
    Limiter limiter = open(cap(1));
    AttemptScript script = AttemptScript.failing(clock);
    ExecuteOptions options =
        ExecuteOptions.builder()
            .replaySafe(true)
            .classifier(TRANSIENT)
            .retry(exact(5, Duration.ofMillis(1500)))
            .build();
    CompletableFuture<String> f = limiter.execute(script, options);
    long[] expected = {500, 1000, 1500, 1500};
    for (long millis : expected) {
      script.awaitStart();
      Duration d = Duration.ofMillis(millis);
      assertThat(advanceToRetry(d, d)).isEqualTo(d);
    }
    Throwable failure = awaitFailure(f);
    assertThat(failure).hasMessage("service down on attempt 5");
    assertThat(script.gaps())
        .extracting(Duration::toMillis)
        .containsExactly(500L, 1000L, 1500L, 1500L);
  }

  @Test
  void jitterKeepsEachDelayWithinTwentyPercentAndUnderTheCap() throws Exception {
    Limiter limiter = open(cap(1));
    AttemptScript script = AttemptScript.failing(clock);
    ExecuteOptions options =
        ExecuteOptions.builder()
            .replaySafe(true)
            .classifier(TRANSIENT)
            .retry(RetryPolicy.builder().maxAttempts(4).build())
            .build();
    CompletableFuture<String> f = limiter.execute(script, options);
    script.awaitStart();
    advanceToRetry(Duration.ofMillis(400), Duration.ofMillis(600));
    script.awaitStart();
    advanceToRetry(Duration.ofMillis(800), Duration.ofMillis(1200));
    script.awaitStart();
    advanceToRetry(Duration.ofMillis(1600), Duration.ofMillis(2400));
    assertThat(awaitFailure(f)).hasMessage("service down on attempt 4");
    assertThat(RetryPolicy.ofDefaults().delayAfter(6, 0.999)).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void aThrottlesRetryAfterIsAFloorEvenBeyondTheCap() throws Exception {
    Limiter limiter = open(cap(1));
    AttemptScript script = AttemptScript.failing(clock);
    ExecuteOptions options =
        ExecuteOptions.builder()
            .replaySafe(true)
            .classifier((r, f) -> AttemptOutcome.throttle(Duration.ofSeconds(30)))
            .retry(exact(2, Duration.ofSeconds(10)))
            .build();
    CompletableFuture<String> f = limiter.execute(script, options);
    script.awaitStart();
    Duration floor = Duration.ofSeconds(30);
    assertThat(advanceToRetry(floor, floor)).isEqualTo(floor);
    assertThat(awaitFailure(f)).hasMessage("service down on attempt 2");
  }

  @Test
  void aTransientResultOnTheLastAttemptIsReturned() throws Exception {
    Limiter limiter = open(cap(1));
    AttemptScript script = new AttemptScript(clock, ctx -> "busy " + ctx.attempt());
    ExecuteOptions options =
        ExecuteOptions.builder()
            .replaySafe(true)
            .classifier((r, f) -> AttemptOutcome.throttle())
            .retry(exact(2, Duration.ofSeconds(10)))
            .build();
    CompletableFuture<String> f = limiter.execute(script, options);
    script.awaitStart();
    advanceToRetry(Duration.ofMillis(500), Duration.ofMillis(500));
    assertThat(await(f)).isEqualTo("busy 2");
  }

  @Test
  void eachAttemptTakesANewLeaseAndSpendsBudgetWhileTheDelayHoldsNone() throws Exception {
    Limiter limiter = open(LimiterConfig.builder().maxConcurrent(1).reservoir(20).build());
    AttemptScript script = AttemptScript.failing(clock);
    ExecuteOptions options =
        ExecuteOptions.builder()
            .replaySafe(true)
            .classifier(TRANSIENT)
            .retry(exact(3, Duration.ofSeconds(10)))
            .build();
    CompletableFuture<String> f = limiter.execute(script, options);
    for (int i = 0; i < 2; i++) {
      script.awaitStart();
      long now = clock.monotonicNanos();
      Duration d = Duration.ofMillis(500L << i);
      clock.awaitTimerDue(now + d.toNanos(), now + d.toNanos(), SAFETY);
      // Between attempts the operation holds nothing: another caller gets the one unit.
      Optional<Lease> other = limiter.tryAcquire(1);
      assertThat(other).as("the unit is free during the delay").isPresent();
      other.get().close();
      clock.advance(d);
    }
    awaitFailure(f);
    List<ExecutionContext> attempts = script.contexts();
    assertThat(attempts).extracting(ExecutionContext::attempt).containsExactly(1, 2, 3);
    assertThat(attempts)
        .extracting(ExecutionContext::operationId)
        .containsOnly(attempts.get(0).operationId());
    assertThat(attempts).extracting(c -> c.admission().leaseId()).doesNotHaveDuplicates();
    long[] tokens = attempts.stream().mapToLong(c -> c.admission().fencingToken()).toArray();
    assertThat(tokens[1]).isGreaterThan(tokens[0]);
    assertThat(tokens[2]).isGreaterThan(tokens[1]);
    assertThat(limiter.currentReservoir()).hasValue(20 - 3 - 2);
  }

  @Test
  void operationsHaveDistinctIdsAndAttemptsCountFromOne() throws Exception {
    Limiter limiter = open(cap(2));
    AttemptScript a = new AttemptScript(clock, ctx -> ctx.operationId() + "/" + ctx.attempt());
    AttemptScript b = new AttemptScript(clock, ctx -> ctx.operationId() + "/" + ctx.attempt());
    String first = await(limiter.execute(a));
    String second = await(limiter.execute(b, ExecuteOptions.defaults()));
    assertThat(first).endsWith("/1");
    assertThat(second).endsWith("/1");
    assertThat(first).isNotEqualTo(second);
    assertThat(a.contexts().get(0).cancelled()).isFalse();
  }

  @Test
  void theBlockingFormReturnsTheResultAndThrowsTheTasksExceptionUnchanged() throws Exception {
    Limiter limiter = open(cap(1));
    String result = limiter.call(ctx -> "ok " + ctx.attempt(), ExecuteOptions.defaults());
    assertThat(result).isEqualTo("ok 1");
    AttemptScript.ServiceDown down = new AttemptScript.ServiceDown(1);
    try {
      limiter.call(
          ctx -> {
            throw down;
          },
          ExecuteOptions.defaults());
      throw new AssertionError("call returned");
    } catch (AttemptScript.ServiceDown e) {
      assertThat(e).isSameAs(down);
    }
    assertThat(limiter.inspect().activeWeight()).isZero();
  }
}
