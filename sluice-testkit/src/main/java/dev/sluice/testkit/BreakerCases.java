/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static dev.sluice.spi.ReportedOutcome.SERVICE_FAILURE;
import static dev.sluice.spi.ReportedOutcome.SUCCESS;
import static dev.sluice.spi.ReportedOutcome.THROTTLE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.CircuitOpenException;
import dev.sluice.ControlStatus;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.ScheduleOptions;
import dev.sluice.spi.AcquireAnswer;
import dev.sluice.spi.LeaseRecord;
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

  protected BreakerCases(StoreFactory stores) {
    super(stores);
  }

  private static void trip(Reporter r) {
    for (int i = 0; i < 5; i++) {
      r.report(r.lease(), SERVICE_FAILURE);
    }
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
    ControlStatus after = limiter.maintenance().status();
    assertThat(after.circuit())
        .as("a probe released without a report reopens the circuit")
        .isEqualTo(ControlStatus.Circuit.OPEN);
    assertThat(after.circuitOpenUntil()).contains(clock.instant().plus(PAUSE));
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
    ControlStatus status = limiter.maintenance().status();
    assertThat(status.circuit()).isEqualTo(ControlStatus.Circuit.OPEN);
    assertThat(status.circuitOpenUntil()).contains(clock.instant().plus(PAUSE));
  }
}
