/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The system timer's own heap and thread: tasks run in due order on the {@code sluice-timer}
 * thread, a cancelled task never runs, a failing task does not stop the others, and the thread ends
 * once nothing is scheduled. Waits are on latches and joins with a safety bound, never sleeps.
 */
class SystemTimeSourceTest {
  private static final long SAFETY_MILLIS = 10_000;
  private final TimeSource clock = TimeSource.system();

  @Test
  void tasksRunInDueOrderOnTheTimerThreadAndCancelledOnesNever() throws Exception {
    List<String> ran = new CopyOnWriteArrayList<>();
    CountDownLatch last = new CountDownLatch(1);
    long now = clock.monotonicNanos();
    long ms = TimeUnit.MILLISECONDS.toNanos(1);
    // Scheduled out of order, at absolute and relative times alike.
    clock.scheduleAtNanos(() -> ran.add("third"), now + 30 * ms);
    clock.schedule(() -> ran.add("first"), 10 * ms);
    TimeSource.Timer cancelled = clock.schedule(() -> ran.add("cancelled"), 20 * ms);
    clock.schedule(
        () -> {
          throw new IllegalStateException("a failing task");
        },
        25 * ms);
    clock.schedule(() -> ran.add("second"), 20 * ms);
    clock.scheduleAtNanos(
        () -> {
          ran.add(Thread.currentThread().getName());
          last.countDown();
        },
        now + 40 * ms);
    cancelled.cancel();
    cancelled.cancel();
    assertThat(last.await(SAFETY_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
    assertThat(ran).containsExactly("first", "second", "third", "sluice-timer");
  }

  @Test
  void aTaskDueEarlierThanTheOneWaitedForWakesTheThread() throws Exception {
    CountDownLatch early = new CountDownLatch(1);
    TimeSource.Timer far = clock.schedule(() -> {}, TimeUnit.HOURS.toNanos(1));
    try {
      // The thread now waits for the far task; an earlier one must not wait behind it.
      clock.schedule(early::countDown, 0);
      assertThat(early.await(SAFETY_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
    } finally {
      far.cancel();
    }
  }

  @Test
  void theWallTimeDerivedFromAMonotonicReadingLiesBetweenWallReadingsAroundIt() {
    for (int i = 0; i < 1_000; i++) {
      long before = clock.wallMillis();
      long derived = clock.wallMillisAt(clock.monotonicNanos());
      long after = clock.wallMillis();
      // Derived from the start of the wall clock's millisecond: it may lag by less than one.
      assertThat(derived).isBetween(before - 1, after);
    }
  }

  @Test
  void theThreadEndsOnceTheLastTaskIsCancelled() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    clock.schedule(started::countDown, 0);
    assertThat(started.await(SAFETY_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
    // A far task that is cancelled: the thread, waiting for it, must not keep waiting an hour.
    TimeSource.Timer far = clock.schedule(() -> {}, TimeUnit.HOURS.toNanos(1));
    Thread timer = timerThread();
    assertThat(timer).isNotNull();
    far.cancel();
    timer.join(SAFETY_MILLIS);
    assertThat(timer.isAlive())
        .as("timer thread alive after its last task was cancelled")
        .isFalse();
    // And a new task starts a new thread.
    CountDownLatch again = new CountDownLatch(1);
    clock.schedule(again::countDown, 0);
    assertThat(again.await(SAFETY_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
  }

  private static Thread timerThread() {
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals("sluice-timer")) {
        return t;
      }
    }
    return null;
  }
}
