/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static dev.sluice.LimiterEvent.Change.CIRCUIT_CLOSED;
import static dev.sluice.LimiterEvent.Change.CIRCUIT_HALF_OPEN;
import static dev.sluice.LimiterEvent.Change.CIRCUIT_OPENED;
import static dev.sluice.LimiterEvent.Change.COOLDOWN_ENTERED;
import static dev.sluice.LimiterEvent.Change.COOLDOWN_LEFT;
import static dev.sluice.LimiterEvent.Change.DRAIN_RESUMED;
import static dev.sluice.LimiterEvent.Change.DRAIN_STARTED;
import static dev.sluice.spi.ReportedOutcome.SERVICE_FAILURE;
import static dev.sluice.spi.ReportedOutcome.SUCCESS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.AttemptOutcome;
import dev.sluice.ControlStatus;
import dev.sluice.ControlStatus.Circuit;
import dev.sluice.ExecuteOptions;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterEvent;
import dev.sluice.LimiterEvent.Change;
import dev.sluice.LimiterEvent.ControlChanged;
import dev.sluice.LimiterOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The control-change events a listener receives, in order and with the state after each: a throttle
 * enters the shared cooldown and its end leaves it; failures open the circuit, the end of its pause
 * makes it half-open (before any probe is admitted), and the probe's outcome closes or reopens it;
 * a drain starts and resumes. Each end that comes by time alone is reported at that end on the
 * manual clock, with nothing but the advance of time to trigger it.
 */
public abstract class ControlEventCases extends ControlCase {
  private static final Duration PAUSE = Duration.ofSeconds(30);

  private final EventRecorder events = new EventRecorder();

  protected ControlEventCases(StoreFactory stores) {
    super(stores);
  }

  /** Opens a limiter on this test's pool whose events {@link #events} records. */
  private Limiter listened(LimiterConfig config) {
    return open(config, LimiterOptions.builder().listener(events).build());
  }

  /** Runs one execution whose only attempt the classifier judges as given. */
  private static void runOnce(Limiter limiter, AttemptOutcome outcome) throws Exception {
    ExecuteOptions once = ExecuteOptions.builder().classifier((r, f) -> outcome).build();
    String result = await(limiter.execute(ctx -> "done", once));
    assertThat(result).isEqualTo("done");
  }

  /** Five service failures in a row, the default breaker's threshold. */
  private static void trip(Limiter limiter) throws Exception {
    for (int i = 0; i < 5; i++) {
      runOnce(limiter, AttemptOutcome.serviceFailure());
    }
  }

  /** Waits for the {@code n}-th control change (from 1) and returns it. */
  private ControlChanged change(int n) throws InterruptedException {
    events.awaitCount(LimiterEvent.Kind.CONTROL_CHANGED, n);
    return (ControlChanged) events.events(LimiterEvent.Kind.CONTROL_CHANGED).get(n - 1);
  }

  /** The control changes recorded so far, in order. */
  private List<Change> changes() {
    return events.events(LimiterEvent.Kind.CONTROL_CHANGED).stream()
        .map(e -> ((ControlChanged) e).change())
        .toList();
  }

  /** Moves the clock by {@code amount} and returns the monotonic time it moved to. */
  private long advance(Duration amount) {
    long at = clock.monotonicNanos() + amount.toNanos();
    clock.advance(amount);
    return at;
  }

  @Test
  void aThrottleEntersTheCooldownAndItsEndLeavesIt() throws Exception {
    Limiter limiter = listened(cap(10));
    Instant end = clock.instant().plusMillis(500);
    runOnce(limiter, AttemptOutcome.throttle());
    ControlChanged entered = change(1);
    assertThat(entered.change()).isEqualTo(COOLDOWN_ENTERED);
    assertThat(entered.pool()).isEqualTo(limiter.pool());
    assertThat(entered.status().cooldownUntil()).contains(end);

    advance(Duration.ofMillis(499));
    assertThat(limiter.maintenance().status().cooldownUntil()).contains(end);
    long endNanos = advance(Duration.ofMillis(1));
    ControlChanged left = change(2);
    assertThat(left.change()).isEqualTo(COOLDOWN_LEFT);
    assertThat(left.status().cooldownUntil()).isEmpty();
    assertThat(left.monotonicNanos()).as("reported at the cooldown's end").isEqualTo(endNanos);
    assertThat(changes()).containsExactly(COOLDOWN_ENTERED, COOLDOWN_LEFT);
  }

  @Test
  void fiveFailuresOpenTheCircuitItsPauseEndMakesItHalfOpenAndASuccessfulProbeClosesIt()
      throws Exception {
    Limiter limiter = listened(withBreaker());
    Instant reopens = clock.instant().plus(PAUSE);
    trip(limiter);
    ControlChanged opened = change(1);
    assertThat(opened.change()).isEqualTo(CIRCUIT_OPENED);
    assertThat(opened.status().circuit()).isEqualTo(Circuit.OPEN);
    assertThat(opened.status().circuitOpenUntil()).contains(reopens);

    long endNanos = advance(PAUSE);
    ControlChanged halfOpen = change(2);
    assertThat(halfOpen.change()).isEqualTo(CIRCUIT_HALF_OPEN);
    assertThat(halfOpen.status().circuit()).isEqualTo(Circuit.HALF_OPEN);
    assertThat(halfOpen.status().circuitOpenUntil()).isEmpty();
    assertThat(halfOpen.monotonicNanos()).as("reported at the pause's end").isEqualTo(endNanos);
    ControlStatus beforeProbe = limiter.maintenance().status();
    assertThat(beforeProbe.circuit())
        .as("half-open once the pause ended, before a probe is admitted")
        .isEqualTo(Circuit.HALF_OPEN);
    assertThat(beforeProbe.activeLeases()).isZero();
    assertThat(beforeProbe.circuitOpenUntil()).isEmpty();

    runOnce(limiter, AttemptOutcome.success());
    ControlChanged closed = change(3);
    assertThat(closed.change()).isEqualTo(CIRCUIT_CLOSED);
    assertThat(closed.status().circuit()).isEqualTo(Circuit.CLOSED);
    assertThat(closed.status().circuitOpenUntil()).isEmpty();
    assertThat(changes()).containsExactly(CIRCUIT_OPENED, CIRCUIT_HALF_OPEN, CIRCUIT_CLOSED);
  }

  @Test
  void aProbeReleasedWithoutAReportReopensTheCircuitAsItIsReleased() throws Exception {
    Limiter limiter = listened(withBreaker());
    trip(limiter);
    assertThat(change(1).change()).isEqualTo(CIRCUIT_OPENED);
    advance(PAUSE);
    assertThat(change(2).change()).isEqualTo(CIRCUIT_HALF_OPEN);

    Lease probe = limiter.acquire(1);
    Instant reopens = clock.instant().plus(PAUSE);
    probe.close();
    // Heard without another read of the pool: the release itself reopened the circuit.
    ControlChanged reopened = change(3);
    assertThat(reopened.change()).isEqualTo(CIRCUIT_OPENED);
    assertThat(reopened.status().circuitOpenUntil())
        .as("the same pause, counted from the release")
        .contains(reopens);
    assertThat(changes()).containsExactly(CIRCUIT_OPENED, CIRCUIT_HALF_OPEN, CIRCUIT_OPENED);
  }

  @Test
  void aFailedProbeReopensTheCircuitForTwiceThePause() throws Exception {
    Limiter limiter = listened(withBreaker());
    trip(limiter);
    assertThat(change(1).change()).isEqualTo(CIRCUIT_OPENED);
    advance(PAUSE);
    assertThat(change(2).change()).isEqualTo(CIRCUIT_HALF_OPEN);

    Instant reopens = clock.instant().plus(PAUSE.multipliedBy(2));
    runOnce(limiter, AttemptOutcome.serviceFailure());
    ControlChanged reopened = change(3);
    assertThat(reopened.change()).isEqualTo(CIRCUIT_OPENED);
    assertThat(reopened.status().circuit()).isEqualTo(Circuit.OPEN);
    assertThat(reopened.status().circuitOpenUntil()).contains(reopens);

    advance(PAUSE.multipliedBy(2).minusMillis(1));
    assertThat(limiter.maintenance().status().circuit()).isEqualTo(Circuit.OPEN);
    long endNanos = advance(Duration.ofMillis(1));
    ControlChanged halfOpen = change(4);
    assertThat(halfOpen.change()).isEqualTo(CIRCUIT_HALF_OPEN);
    assertThat(halfOpen.monotonicNanos()).isEqualTo(endNanos);
    assertThat(changes())
        .containsExactly(CIRCUIT_OPENED, CIRCUIT_HALF_OPEN, CIRCUIT_OPENED, CIRCUIT_HALF_OPEN);
  }

  @Test
  void anotherOwnersChangesAreReportedAndThePauseEndAtItsTime() throws Exception {
    Reporter r = reporter(withBreaker());
    Limiter limiter = listened(withBreaker());
    Instant reopens = clock.instant().plus(PAUSE);
    for (int i = 0; i < 5; i++) {
      r.report(r.lease(), SERVICE_FAILURE);
    }
    // Every store wakes every owner for a change of the circuit's phase: no read is needed here.
    ControlChanged opened = change(1);
    assertThat(opened.change()).isEqualTo(CIRCUIT_OPENED);
    assertThat(opened.status().circuitOpenUntil()).contains(reopens);

    long endNanos = advance(PAUSE);
    ControlChanged halfOpen = change(2);
    assertThat(halfOpen.change()).isEqualTo(CIRCUIT_HALF_OPEN);
    assertThat(halfOpen.monotonicNanos()).isEqualTo(endNanos);

    assertThat(r.report(r.lease(), SUCCESS).counted()).isTrue();
    assertThat(change(3).change()).isEqualTo(CIRCUIT_CLOSED);
    assertThat(changes()).containsExactly(CIRCUIT_OPENED, CIRCUIT_HALF_OPEN, CIRCUIT_CLOSED);
  }

  @Test
  void aDrainAndItsResumeAreReportedInOrder() throws Exception {
    Limiter limiter = listened(cap(1));
    ControlStatus drained = limiter.maintenance().drain();
    ControlChanged started = change(1);
    assertThat(started.change()).isEqualTo(DRAIN_STARTED);
    assertThat(started.status().generation()).isEqualTo(drained.generation());
    assertThat(started.status().draining()).isTrue();
    limiter.maintenance().resume(drained.generation());
    ControlChanged resumed = change(2);
    assertThat(resumed.change()).isEqualTo(DRAIN_RESUMED);
    assertThat(resumed.status().draining()).isFalse();
    assertThat(changes()).containsExactly(DRAIN_STARTED, DRAIN_RESUMED);
  }
}
