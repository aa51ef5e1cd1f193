/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static dev.sluice.spi.ReportedOutcome.SERVICE_FAILURE;
import static dev.sluice.spi.ReportedOutcome.SUCCESS;
import static dev.sluice.spi.ReportedOutcome.THROTTLE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.BreakerPolicy;
import dev.sluice.CircuitOpenException;
import dev.sluice.ControlStatus;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.RecoveryPolicy;
import dev.sluice.ScheduleOptions;
import dev.sluice.spi.AcquireAnswer;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.ReportAnswer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The shared circuit breaker: failures reported by one owner open the circuit for every owner. */
public abstract class BreakerCases extends ControlCase {
  private static final Duration PAUSE = Duration.ofSeconds(30);
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration WINDOW = Duration.ofSeconds(10);

  protected BreakerCases(StoreFactory stores) {
    super(stores);
  }

  private static void trip(Reporter r) {
    for (int i = 0; i < 5; i++) {
      r.report(r.lease(), SERVICE_FAILURE);
    }
  }

  /** A pool whose breaker opens when half of at least four samples in a 10 s window failed. */
  private static LimiterConfig byPercentage() {
    BreakerPolicy half = BreakerPolicy.percentage(0.5, 4, WINDOW).build();
    return LimiterConfig.builder().recovery(RecoveryPolicy.builder().breaker(half).build()).build();
  }

  private static ControlStatus.Circuit circuit(Limiter limiter) {
    return limiter.maintenance().status().circuit();
  }

  /** Asserts that {@code limiter} sees the circuit open for {@code pause} from now. */
  private void assertOpenFor(Limiter limiter, Duration pause, String why) {
    ControlStatus status = limiter.maintenance().status();
    assertThat(status.circuit()).as(why).isEqualTo(ControlStatus.Circuit.OPEN);
    assertThat(status.circuitOpenUntil()).as(why).contains(clock.instant().plus(pause));
  }

  @Test
  void fiveFailuresOpenTheCircuitForEveryOwnerAndThenOneProbePasses() throws Exception {
    Reporter r = reporter(withBreaker());
    Limiter limiter = openSecondOwner(withBreaker());
    trip(r);
    assertThat(limiter.maintenance().status().circuit()).isEqualTo(ControlStatus.Circuit.OPEN);
    assertThat(limiter.tryAcquire(1)).isEmpty();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    List<CompletableFuture<Integer>> waiting = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      waiting.add(
          limiter.schedule(
              () -> {
                started.countDown();
                await(finish);
                return 1;
              }));
    }
    settled(limiter);
    clock.advance(PAUSE);
    await(started);
    assertThat(limiter.inspect().leases()).as("exactly one probe").hasSize(1);
    assertThat(limiter.inspect().waiters()).hasSize(1);
    assertThat(limiter.maintenance().status().circuit()).isEqualTo(ControlStatus.Circuit.HALF_OPEN);
    finish.countDown();
    assertThat(await(waiting.get(0))).isEqualTo(1);
    assertOpenFor(limiter, PAUSE, "a probe released without a report reopens the circuit");
    assertThat(waiting.get(1)).isNotDone();
  }

  @Test
  void aSuccessfulProbeClosesTheCircuitAndAdmitsTheWaiters() throws Exception {
    Reporter r = reporter(withBreaker());
    Limiter limiter = openSecondOwner(withBreaker());
    trip(r);
    clock.advance(PAUSE);
    LeaseRecord probe = r.lease();
    CompletableFuture<Integer> waiting = limiter.schedule(() -> 7);
    settled(limiter);
    assertThat(waiting).isNotDone();
    assertThat(r.report(probe, SUCCESS).counted()).isTrue();
    assertThat(await(waiting)).isEqualTo(7);
    assertThat(limiter.maintenance().status().circuit()).isEqualTo(ControlStatus.Circuit.CLOSED);
  }

  @Test
  void failFastRefusesWithWhenToRetry() throws Exception {
    Reporter r = reporter(withBreaker());
    Limiter limiter = openSecondOwner(withBreaker());
    Instant openUntil = clock.instant().plus(PAUSE);
    trip(r);
    CompletableFuture<Integer> refused =
        limiter.schedule(a -> 1, ScheduleOptions.builder().circuitFailFast(true).build());
    Throwable failure = awaitFailure(refused);
    assertThat(failure).isInstanceOf(CircuitOpenException.class);
    assertThat(((CircuitOpenException) failure).notBefore()).isEqualTo(openUntil);
    assertThat(limiter.inspect().waiters()).as("nothing was queued").isEmpty();
    assertThat(r.acquire(true)).isEqualTo(new AcquireAnswer.CircuitOpen(openUntil.toEpochMilli()));
  }

  @Test
  void aFailedProbeDoublesThePause() {
    Reporter r = reporter(withBreaker());
    trip(r);
    clock.advance(PAUSE);
    r.report(r.lease(), SERVICE_FAILURE);
    Limiter limiter = open(withBreaker());
    assertThat(limiter.maintenance().status().circuitOpenUntil())
        .contains(clock.instant().plus(PAUSE.multipliedBy(2)));
  }

  @Test
  void throttlingIsNotAServiceFailure() {
    Reporter r = reporter(withBreaker());
    List<LeaseRecord> burst = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      burst.add(r.lease());
    }
    for (LeaseRecord l : burst) {
      r.report(l, THROTTLE);
    }
    Limiter limiter = open(withBreaker());
    assertThat(limiter.maintenance().status().circuit()).isEqualTo(ControlStatus.Circuit.CLOSED);
  }

  @Test
  void anExpiredProbeCannotCloseTheCircuit() {
    LimiterConfig expiring =
        LimiterConfig.builder()
            .expiration(Duration.ofSeconds(1))
            .recovery(withBreaker().recovery())
            .build();
    Reporter r = reporter(expiring);
    trip(r);
    clock.advance(PAUSE);
    LeaseRecord probe = r.lease();
    clock.advance(Duration.ofSeconds(1));
    assertThat(r.report(probe, SUCCESS).released()).isFalse();
    Limiter limiter = open(expiring);
    assertOpenFor(limiter, PAUSE, "open");
  }

  @Test
  void thePercentageRuleWaitsForItsMinimumSamples() {
    Reporter a = reporter(byPercentage());
    Reporter c = reporter(byPercentage());
    Limiter limiter = openSecondOwner(byPercentage());
    a.report(a.lease(), SERVICE_FAILURE);
    c.report(c.lease(), SERVICE_FAILURE);
    a.report(a.lease(), SERVICE_FAILURE);
    assertThat(circuit(limiter))
        .as("every sample failed, but there are 3 of the 4 the rule needs")
        .isEqualTo(ControlStatus.Circuit.CLOSED);
    assertThat(limiter.tryAcquire(1)).isPresent().get().satisfies(Lease::close);
    c.report(c.lease(), SERVICE_FAILURE);
    assertOpenFor(limiter, PAUSE, "open");
    assertThat(limiter.tryAcquire(1)).isEmpty();
  }

  @Test
  void thePercentageRuleOpensWhenTheShareOfFailuresReachesTheRatio() {
    Reporter a = reporter(byPercentage());
    Reporter c = reporter(byPercentage());
    Limiter limiter = openSecondOwner(byPercentage());
    a.report(a.lease(), SUCCESS);
    c.report(c.lease(), SERVICE_FAILURE);
    a.report(a.lease(), SUCCESS);
    c.report(c.lease(), SUCCESS);
    assertThat(circuit(limiter)).as("1 of 4 failed").isEqualTo(ControlStatus.Circuit.CLOSED);
    a.report(a.lease(), SERVICE_FAILURE);
    assertThat(circuit(limiter)).as("2 of 5 failed").isEqualTo(ControlStatus.Circuit.CLOSED);
    assertThat(c.report(c.lease(), SERVICE_FAILURE).counted()).isTrue();
    assertOpenFor(limiter, PAUSE, "3 of 6 failed: the ratio");
  }

  @Test
  void samplesLeaveThePercentageWindowAsTimePasses() {
    Reporter a = reporter(byPercentage());
    Reporter c = reporter(byPercentage());
    Limiter limiter = openSecondOwner(byPercentage());
    a.report(a.lease(), SERVICE_FAILURE);
    c.report(c.lease(), SERVICE_FAILURE);
    // The window slides in steps of 1/128 of its 10 s: a second either side of its edge is clear.
    clock.advance(Duration.ofSeconds(9));
    a.report(a.lease(), SERVICE_FAILURE);
    clock.advance(Duration.ofSeconds(2));
    c.report(c.lease(), SUCCESS);
    a.report(a.lease(), SUCCESS);
    assertThat(circuit(limiter))
        .as("the first two failures left the window: 1 of 3 samples failed")
        .isEqualTo(ControlStatus.Circuit.CLOSED);
    c.report(c.lease(), SERVICE_FAILURE);
    assertThat(circuit(limiter))
        .as("the failure 2 s ago is still inside: 2 of 4 failed")
        .isEqualTo(ControlStatus.Circuit.OPEN);
  }

  @Test
  void aProbeThatOutlivesItsTimeoutIsReplacedAndItsLateReportChangesNothing() throws Exception {
    Reporter a = reporter(withBreaker());
    Reporter c = reporter(withBreaker());
    Limiter limiter = openSecondOwner(withBreaker());
    trip(a);
    clock.advance(PAUSE);
    LeaseRecord stale = a.lease();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    CompletableFuture<Integer> replacement =
        limiter.schedule(
            () -> {
              started.countDown();
              await(finish);
              return 1;
            });
    settled(limiter);
    clock.advance(PROBE_TIMEOUT.minusMillis(1));
    assertThat(limiter.inspect().leases()).as("the probe still runs alone").hasSize(1);
    assertThat(limiter.inspect().waiters()).hasSize(1);
    clock.advance(Duration.ofMillis(1));
    await(started);
    assertThat(a.report(stale, SUCCESS))
        .as("released, but no evidence")
        .isEqualTo(new ReportAnswer(true, false));
    assertThat(circuit(limiter)).isEqualTo(ControlStatus.Circuit.HALF_OPEN);
    assertThat(c.acquire(false)).as("one probe at a time").isEqualTo(new AcquireAnswer.Refused());
    finish.countDown();
    assertThat(await(replacement)).isEqualTo(1);
    assertOpenFor(
        limiter, PAUSE, "the replacement ended without a report: open again, the pause not grown");
  }

  @Test
  void eachFailedProbeDoublesThePauseUpToFiveMinutesAndNeverBeyond() {
    Reporter a = reporter(withBreaker());
    Reporter c = reporter(withBreaker());
    Limiter limiter = openSecondOwner(withBreaker());
    Reporter[] owners = {c, a};
    trip(a);
    Duration pause = PAUSE;
    int probes = 0;
    for (long seconds : new long[] {60, 120, 240, 300, 300}) {
      clock.advance(pause.minusMillis(1));
      assertThat(limiter.tryAcquire(1)).as("open until the pause ends").isEmpty();
      clock.advance(Duration.ofMillis(1));
      Reporter r = owners[probes++ % 2];
      assertThat(r.report(r.lease(), SERVICE_FAILURE).counted()).isTrue();
      pause = Duration.ofSeconds(seconds);
      assertOpenFor(limiter, pause, "the pause after failed probe " + probes);
    }
  }

  @Test
  void theProbeSpendsBudgetAndOnlyItsOwnerCanReportIt() {
    LimiterConfig budgeted =
        LimiterConfig.builder().reservoir(10).recovery(withBreaker().recovery()).build();
    Reporter a = reporter(budgeted);
    Reporter c = reporter(budgeted);
    Limiter limiter = openSecondOwner(budgeted);
    trip(a);
    clock.advance(PAUSE);
    LeaseRecord probe = a.lease();
    assertThat(limiter.currentReservoir()).hasValue(4);
    assertThat(c.report(probe, SUCCESS))
        .as("another owner's report finds no lease of its own")
        .isEqualTo(new ReportAnswer(false, false));
    assertThat(circuit(limiter)).isEqualTo(ControlStatus.Circuit.HALF_OPEN);
    assertThat(a.report(probe, SUCCESS).counted()).isTrue();
    assertThat(circuit(limiter)).isEqualTo(ControlStatus.Circuit.CLOSED);
  }
}
