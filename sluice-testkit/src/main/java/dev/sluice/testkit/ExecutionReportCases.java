/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.AttemptClassifier;
import dev.sluice.AttemptOutcome;
import dev.sluice.AttemptTimeoutException;
import dev.sluice.BreakerPolicy;
import dev.sluice.ControlStatus;
import dev.sluice.ExecuteOptions;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.RecoveryPolicy;
import dev.sluice.ScheduleOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * What managed execution reports to the pool: each attempt's classified outcome goes out with its
 * lease's release, so a throttle seen by one owner's {@code execute} or {@code call} pauses every
 * owner, service failures open the shared circuit, a success resets, and neutral, cancelled and
 * expired attempts never count. Time moves only on the manual clock.
 */
public abstract class ExecutionReportCases extends ConformanceCase {
  private static final LimiterConfig BREAKER =
      LimiterConfig.builder()
          .maxConcurrent(10)
          .recovery(
              RecoveryPolicy.builder()
                  .breaker(BreakerPolicy.consecutive().failureThreshold(3).build())
                  .build())
          .build();

  /**
   * Creates the cases.
   *
   * @param stores the store under test
   */
  protected ExecutionReportCases(StoreFactory stores) {
    super(stores);
  }

  private static ExecuteOptions once(AttemptClassifier classifier) {
    return ExecuteOptions.builder().classifier(classifier).build();
  }

  private Optional<Instant> in(long millis) {
    return Optional.of(clock.instant().plusMillis(millis));
  }

  /** Runs one execution of {@code limiter} whose only attempt the classifier judges as given. */
  private String runOnce(Limiter limiter, AttemptOutcome outcome) throws Exception {
    return await(limiter.execute(ctx -> "done", once((r, f) -> outcome)));
  }

  @Test
  void anExecutedThrottlePausesEveryOwnerOfThePool() throws Exception {
    Limiter executing = open(cap(10));
    Limiter other = openSecondOwner(cap(10));
    Optional<Instant> end = in(500);
    assertThat(runOnce(executing, AttemptOutcome.throttle())).isEqualTo("done");
    assertThat(other.maintenance().status().cooldownUntil()).isEqualTo(end);
    assertThat(other.tryAcquire(1)).isEmpty();
    CompletableFuture<Instant> waiting =
        other.schedule(a -> a.grantedAt(), ScheduleOptions.defaults());
    settled(other);
    clock.advance(Duration.ofMillis(499));
    settled(other);
    assertThat(waiting).isNotDone();
    clock.advance(Duration.ofMillis(1));
    assertThat(await(waiting)).isEqualTo(end.orElseThrow());
  }

  @Test
  void theBlockingCallReportsItsThrottleAndARetryAfterIsAFloorBeyondTheCap() throws Exception {
    Limiter calling = open(cap(10));
    Limiter other = openSecondOwner(cap(10));
    Optional<Instant> end = in(90_000);
    String answer =
        calling.call(
            ctx -> "done", once((r, f) -> AttemptOutcome.throttle(Duration.ofSeconds(90))));
    assertThat(answer).isEqualTo("done");
    assertThat(other.maintenance().status().cooldownUntil())
        .as("90 s, beyond the 10 s cap")
        .isEqualTo(end);
  }

  @Test
  void aFreshSuccessAfterTheCooldownResetsItsEscalation() throws Exception {
    Limiter limiter = open(cap(10));
    ExecuteOptions retried =
        ExecuteOptions.builder()
            .replaySafe(true)
            .retry(ExecutionCases.exact(2, Duration.ofSeconds(10)))
            .classifier((r, f) -> f == null ? AttemptOutcome.success() : AttemptOutcome.throttle())
            .build();
    AttemptScript script =
        new AttemptScript(
            clock,
            ctx -> {
              if (ctx.attempt() == 1) {
                throw new AttemptScript.ServiceDown(1);
              }
              return "ok";
            });
    CompletableFuture<String> run = limiter.execute(script, retried);
    script.awaitStart();
    long now = clock.monotonicNanos();
    clock.advance(
        Duration.ofNanos(
            clock.awaitTimerDue(now + 500_000_000L, now + 500_000_000L, SAFETY) - now));
    assertThat(await(run)).isEqualTo("ok");
    assertThat(script.attempts()).isEqualTo(2);
    // Escalated once (step 1), then reset by the fresh success: the next throttle pauses 500 ms.
    Optional<Instant> end = in(500);
    runOnce(limiter, AttemptOutcome.throttle());
    assertThat(limiter.maintenance().status().cooldownUntil()).isEqualTo(end);
  }

  @Test
  void serviceFailuresOfExecutionsInTwoOwnersOpenTheCircuitAndASuccessResets() throws Exception {
    Limiter a = open(BREAKER);
    Limiter b = openSecondOwner(BREAKER);
    runOnce(a, AttemptOutcome.serviceFailure());
    runOnce(b, AttemptOutcome.serviceFailure());
    runOnce(a, AttemptOutcome.success());
    runOnce(b, AttemptOutcome.serviceFailure());
    runOnce(a, AttemptOutcome.serviceFailure());
    assertThat(b.maintenance().status().circuit())
        .as("the success reset the count")
        .isEqualTo(ControlStatus.Circuit.CLOSED);
    Optional<Instant> reopens = in(30_000);
    runOnce(b, AttemptOutcome.serviceFailure());
    ControlStatus status = a.maintenance().status();
    assertThat(status.circuit()).isEqualTo(ControlStatus.Circuit.OPEN);
    assertThat(status.circuitOpenUntil()).isEqualTo(reopens);
  }

  @Test
  void neutralOutcomesAndThrottlesAreNoServiceFailures() throws Exception {
    Limiter limiter = open(BREAKER);
    runOnce(limiter, AttemptOutcome.serviceFailure());
    runOnce(limiter, AttemptOutcome.serviceFailure());
    runOnce(limiter, AttemptOutcome.neutral());
    runOnce(limiter, AttemptOutcome.neutral());
    await(limiter.schedule(() -> 1));
    assertThat(limiter.maintenance().status().circuit()).isEqualTo(ControlStatus.Circuit.CLOSED);
    runOnce(limiter, AttemptOutcome.serviceFailure());
    assertThat(limiter.maintenance().status().circuit())
        .as("the neutral outcomes neither counted nor reset")
        .isEqualTo(ControlStatus.Circuit.OPEN);
  }

  @Test
  void aCancelledAttemptIsNoEvidence() throws Exception {
    Limiter limiter = open(BREAKER);
    runOnce(limiter, AttemptOutcome.serviceFailure());
    runOnce(limiter, AttemptOutcome.serviceFailure());
    AttemptScript script = AttemptScript.waiting(clock);
    ExecuteOptions timed =
        ExecuteOptions.builder()
            .attemptTimeout(Duration.ofSeconds(1))
            .classifier((r, f) -> AttemptOutcome.serviceFailure())
            .build();
    CompletableFuture<String> run = limiter.execute(script, timed);
    script.awaitStart();
    long now = clock.monotonicNanos();
    clock.advance(
        Duration.ofNanos(
            clock.awaitTimerDue(now + 1_000_000_000L, now + 1_000_000_000L, SAFETY) - now));
    assertThat(awaitFailure(run)).isInstanceOf(AttemptTimeoutException.class);
    script.release();
    // A close waits for the running task and its lease's release.
    limiter.close();
    limiter = open(BREAKER);
    assertThat(limiter.maintenance().status().circuit())
        .as("the timed-out attempt's late failure did not count")
        .isEqualTo(ControlStatus.Circuit.CLOSED);
    runOnce(limiter, AttemptOutcome.serviceFailure());
    assertThat(limiter.maintenance().status().circuit()).isEqualTo(ControlStatus.Circuit.OPEN);
  }

  @Test
  void anAttemptWhoseLeaseExpiredIsNoEvidence() throws Exception {
    Limiter limiter = open(BREAKER);
    runOnce(limiter, AttemptOutcome.serviceFailure());
    runOnce(limiter, AttemptOutcome.serviceFailure());
    AttemptScript script = AttemptScript.waiting(clock);
    ExecuteOptions expiring =
        ExecuteOptions.builder()
            .schedule(ScheduleOptions.builder().expiration(Duration.ofSeconds(1)).build())
            .noAttemptTimeout()
            .classifier((r, f) -> AttemptOutcome.serviceFailure())
            .build();
    CompletableFuture<String> run = limiter.execute(script, expiring);
    script.awaitStart();
    clock.advance(Duration.ofSeconds(2));
    assertThat(limiter.inspect().leases()).as("the lease expired while the task ran").isEmpty();
    script.release();
    assertThat(await(run)).isEqualTo("late");
    assertThat(limiter.maintenance().status().circuit())
        .as("the lost attempt's failure did not count")
        .isEqualTo(ControlStatus.Circuit.CLOSED);
    runOnce(limiter, AttemptOutcome.serviceFailure());
    assertThat(limiter.maintenance().status().circuit()).isEqualTo(ControlStatus.Circuit.OPEN);
  }
}
