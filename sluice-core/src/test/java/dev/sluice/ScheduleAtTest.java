/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link TimeSource#scheduleAt} against a clock that moves while a timer is being scheduled. */
class ScheduleAtTest {

  /** A clock whose wall time jumps during chosen calls to schedule; it records every timer. */
  private static final class JumpingClock implements TimeSource {
    final List<Long> delays = new ArrayList<>();
    final List<Runnable> tasks = new ArrayList<>();
    final List<Boolean> cancelled = new ArrayList<>();
    long wall = 1_000;
    long jumpOnSchedule;

    @Override
    public long wallMillis() {
      return wall;
    }

    @Override
    public long monotonicNanos() {
      return wall * 1_000_000L;
    }

    @Override
    public Timer schedule(Runnable task, long delayNanos) {
      int index = delays.size();
      delays.add(delayNanos);
      tasks.add(task);
      cancelled.add(false);
      wall += jumpOnSchedule;
      jumpOnSchedule = 0;
      return () -> cancelled.set(index, true);
    }
  }

  @Test
  void aClockThatHoldsStillGetsOneTimerForTheRemainingTime() {
    JumpingClock clock = new JumpingClock();
    clock.scheduleAt(() -> {}, 1_500);
    assertThat(clock.delays).containsExactly(500_000_000L);
    assertThat(clock.cancelled).containsExactly(false);
  }

  @Test
  void aJumpWhileSchedulingIsNotAddedToTheWait() {
    JumpingClock clock = new JumpingClock();
    clock.jumpOnSchedule = 400;
    clock.scheduleAt(() -> {}, 1_500);
    // The first timer would have fired at 1,900; it is replaced by one due at 1,500.
    assertThat(clock.delays).containsExactly(500_000_000L, 100_000_000L);
    assertThat(clock.cancelled).containsExactly(true, false);
  }

  @Test
  void aJumpPastTheMomentRunsTheTaskWithoutWaiting() {
    JumpingClock clock = new JumpingClock();
    clock.jumpOnSchedule = 900;
    clock.scheduleAt(() -> {}, 1_500);
    assertThat(clock.delays).containsExactly(500_000_000L, 0L);
    assertThat(clock.cancelled).containsExactly(true, false);
  }

  @Test
  void theTaskRunsOnceEvenIfAReplacedTimerAlsoFires() {
    JumpingClock clock = new JumpingClock();
    clock.jumpOnSchedule = 400;
    AtomicInteger runs = new AtomicInteger();
    clock.scheduleAt(runs::incrementAndGet, 1_500);
    clock.tasks.forEach(Runnable::run);
    assertThat(runs).hasValue(1);
  }

  @Test
  void cancellingTheHandleCancelsTheLiveTimer() {
    JumpingClock clock = new JumpingClock();
    clock.jumpOnSchedule = 400;
    TimeSource.Timer handle = clock.scheduleAt(() -> {}, 1_500);
    handle.cancel();
    assertThat(clock.cancelled).containsExactly(true, true);
  }
}
