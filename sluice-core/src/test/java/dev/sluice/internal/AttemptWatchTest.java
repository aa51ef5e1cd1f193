/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.TimeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link AttemptWatch}: each attempt cut once at its time unless it ended first, one timer. */
class AttemptWatchTest {
  /** A watched attempt that records its cuts. */
  private static final class Attempt extends AttemptWatch.Watched {
    final List<Long> cutAt = new ArrayList<>();
  }

  /** A clock that moves only when told, and runs its due timers then. */
  private static final class StepClock implements TimeSource {
    private final List<long[]> due = new ArrayList<>();
    private final List<Runnable> tasks = new ArrayList<>();
    long nanos = 1_000_000_000L;

    @Override
    public long wallMillis() {
      return nanos / 1_000_000L;
    }

    @Override
    public long monotonicNanos() {
      return nanos;
    }

    @Override
    public Timer schedule(Runnable task, long delayNanos) {
      long[] at = {nanos + Math.max(0, delayNanos)};
      due.add(at);
      tasks.add(task);
      return () -> at[0] = -1;
    }

    int armed() {
      int n = 0;
      for (long[] at : due) {
        n += at[0] >= 0 ? 1 : 0;
      }
      return n;
    }

    void advanceTo(long to) {
      nanos = to;
      for (int i = 0; i < due.size(); i++) {
        long[] at = due.get(i);
        if (at[0] >= 0 && at[0] <= nanos) {
          at[0] = -1;
          tasks.get(i).run();
        }
      }
    }
  }

  private static void cut(Attempt a, StepClock clock) {
    a.cutAt.add(clock.nanos);
  }

  @Test
  void anAttemptEndedInTimeIsNeverCutAndLeavesNoTimer() {
    StepClock clock = new StepClock();
    AttemptWatch watch = new AttemptWatch(clock, false);
    Attempt a = new Attempt();
    watch.watch(a, clock.nanos + 100, w -> cut(a, clock));
    assertThat(clock.armed()).isEqualTo(1);
    watch.unwatch(a);
    assertThat(clock.armed()).isZero();
    assertThat(watch.armed()).isFalse();
    clock.advanceTo(clock.nanos + 1_000);
    assertThat(a.cutAt).isEmpty();
  }

  @Test
  void dueAttemptsAreCutOnceAndTheTimerMovesToTheEarliestLeft() {
    StepClock clock = new StepClock();
    AttemptWatch watch = new AttemptWatch(clock, false);
    long t0 = clock.nanos;
    Attempt late = new Attempt();
    Attempt early = new Attempt();
    Attempt middle = new Attempt();
    watch.watch(late, t0 + 300, w -> cut(late, clock));
    watch.watch(early, t0 + 100, w -> cut(early, clock));
    watch.watch(middle, t0 + 200, w -> cut(middle, clock));
    assertThat(clock.armed()).as("one timer, for the earliest").isEqualTo(1);

    clock.advanceTo(t0 + 150);
    assertThat(early.cutAt).containsExactly(t0 + 150);
    assertThat(middle.cutAt).isEmpty();
    assertThat(clock.armed()).isEqualTo(1);

    watch.unwatch(middle);
    clock.advanceTo(t0 + 250);
    assertThat(middle.cutAt).as("ended before its time").isEmpty();
    assertThat(late.cutAt).isEmpty();

    clock.advanceTo(t0 + 300);
    assertThat(late.cutAt).containsExactly(t0 + 300);
    watch.unwatch(late);
    assertThat(clock.armed()).isZero();
    assertThat(early.cutAt).hasSize(1);
  }

  @Test
  void aLingeringTimerFiresOnceForNothingAndStillCutsALaterAttemptAtItsTime() {
    StepClock clock = new StepClock();
    AttemptWatch watch = new AttemptWatch(clock, true);
    long t0 = clock.nanos;
    Attempt first = new Attempt();
    watch.watch(first, t0 + 100, w -> cut(first, clock));
    watch.unwatch(first);
    assertThat(clock.armed()).as("left armed for the next attempt").isEqualTo(1);

    Attempt second = new Attempt();
    watch.watch(second, t0 + 500, w -> cut(second, clock));
    assertThat(clock.armed()).as("a later cut time arms nothing new").isEqualTo(1);

    clock.advanceTo(t0 + 100);
    assertThat(first.cutAt).isEmpty();
    assertThat(second.cutAt).isEmpty();
    assertThat(clock.armed()).as("armed again for the attempt left").isEqualTo(1);

    clock.advanceTo(t0 + 500);
    assertThat(second.cutAt).containsExactly(t0 + 500);
    assertThat(clock.armed()).isZero();
  }

  @Test
  void aClosingLimitersWatchStopsLingeringAndLeavesNoTimer() {
    StepClock clock = new StepClock();
    AttemptWatch watch = new AttemptWatch(clock, true);
    Attempt ended = new Attempt();
    Attempt running = new Attempt();
    watch.watch(ended, clock.nanos + 100, w -> cut(ended, clock));
    watch.watch(running, clock.nanos + 200, w -> cut(running, clock));
    watch.unwatch(ended);
    watch.stopLingering();
    assertThat(clock.armed()).as("an attempt still runs").isEqualTo(1);
    watch.unwatch(running);
    assertThat(clock.armed()).isZero();
    assertThat(watch.armed()).isFalse();
  }

  @Test
  void attemptsEndingOnManyThreadsAtOnceLeaveNoTimerArmed() throws Exception {
    AttemptWatch watch = new AttemptWatch(TimeSource.system(), false);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      Thread worker =
          new Thread(
              () -> {
                for (int i = 0; i < 2_000; i++) {
                  Attempt a = new Attempt();
                  // Far cut times: only the attempts' ends rescan, each racing the others'.
                  watch.watch(a, System.nanoTime() + TimeUnit.HOURS.toNanos(1) + i, w -> {});
                  watch.unwatch(a);
                }
              });
      workers.add(worker);
      worker.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    assertThat(watch.armed()).as("a rescan that saw an ended attempt armed the timer").isFalse();
  }

  @Test
  void attemptsWatchedFromManyThreadsWhileTheTimerFiresAreAllCut() throws Exception {
    AttemptWatch watch = new AttemptWatch(TimeSource.system());
    int threads = 8;
    int perThread = 2_000;
    CountDownLatch allCut = new CountDownLatch(threads * perThread);
    Set<Attempt> cut = ConcurrentHashMap.newKeySet();
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread worker =
          new Thread(
              () -> {
                for (int i = 0; i < perThread; i++) {
                  Attempt kept = new Attempt();
                  Attempt ended = new Attempt();
                  long now = System.nanoTime();
                  // Cut times spread over a few milliseconds, so the timer fires while others
                  // watch.
                  watch.watch(kept, now + (i % 50) * 100_000L, w -> onCut(w, cut, allCut));
                  // Its cut, if a descheduled thread ends it late, is no concern of this test.
                  watch.watch(ended, now + 50_000_000L, w -> {});
                  watch.unwatch(ended);
                }
              });
      workers.add(worker);
      worker.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    assertThat(allCut.await(30, TimeUnit.SECONDS)).as("every kept attempt was cut").isTrue();
    assertThat(cut).hasSize(threads * perThread);
  }

  private static void onCut(AttemptWatch.Watched w, Set<Attempt> cut, CountDownLatch allCut) {
    if (cut.add((Attempt) w)) {
      allCut.countDown();
    }
  }
}
