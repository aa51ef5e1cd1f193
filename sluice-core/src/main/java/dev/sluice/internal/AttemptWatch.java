/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.TimeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The running attempts of a limiter whose attempt timeout or execution deadline may cut them short,
 * watched by one timer of the clock for the earliest of their cut times.
 *
 * <p>An attempt is watched from its start to its end, and nearly every attempt ends long before its
 * cut time (a task returns well within a timeout of a minute). So watching costs what a lock of one
 * stripe and a link into its list cost, and the attempt itself is the list's node: nothing is
 * allocated, and attempts of different threads take different stripes. The timer is armed only when
 * an attempt's cut time comes before the armed one; when it fires it cuts the attempts that are
 * due, finds the earliest cut time left and arms itself for that. It never fires "just to check":
 * every time it fires at was a real attempt's cut time, though that attempt may have ended since.
 *
 * <p>On the system clock the timer stays armed when the last attempt ends, so a steady stream of
 * attempts arms about one timer per cut-time span instead of arming and cancelling one per attempt;
 * it then fires once for nothing and stops. Once its limiter begins to close ({@link
 * #stopLingering}), or on any other clock (a manual one in tests), the end of the last attempt
 * disarms it: a closed limiter leaves no timer behind, and a test can count armed timers.
 *
 * <p>Thread-safe. Why a timer never misses an attempt: {@link #watch} links the attempt and then
 * reads the armed time; {@link #rescan} writes "nothing armed" and then reads every stripe. Either
 * the watch reads "nothing armed" and arms the timer itself, or the rescan sees its link.
 */
final class AttemptWatch {
  /** What the watch keeps of an attempt: its place in a stripe's list and when to cut it. */
  abstract static class Watched {
    private Watched prev;
    private Watched next;
    private Stripe stripe;
    private long cutAtNanos;
    private Consumer<? super Watched> onCut;
  }

  /** A lock with the list of the attempts it guards. */
  @SuppressWarnings("serial")
  private static final class Stripe extends ReentrantLock {
    private Watched head;
  }

  private final TimeSource clock;
  private volatile boolean lingers;
  private final Stripe[] stripes;
  private final ReentrantLock armLock = new ReentrantLock();

  /** The cut time the timer is armed for, or {@link Long#MAX_VALUE} for none. */
  private volatile long armedAt = Long.MAX_VALUE;

  // Guarded by armLock.
  private TimeSource.Timer timer;
  private long armings;

  /** Counts rescans begun: only the latest may arm the timer for what it found. */
  private long rescans;

  AttemptWatch(TimeSource clock) {
    this(clock, clock == TimeSource.system());
  }

  /** A watch whose timer {@code lingers} after the last attempt or not; for tests of both. */
  AttemptWatch(TimeSource clock, boolean lingers) {
    this.clock = clock;
    this.lingers = lingers;
    int n = Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors()) * 4 - 1);
    this.stripes = new Stripe[Math.min(64, n)];
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = new Stripe();
    }
  }

  /**
   * Watches {@code w} until {@link #unwatch}: at monotonic time {@code cutAtNanos}, unless
   * unwatched first, {@code onCut} gets it on the timer's thread, where it must only hand work off.
   */
  @SuppressWarnings("unchecked")
  <W extends Watched> void watch(W watched, long cutAtNanos, Consumer<? super W> onCut) {
    Watched w = watched;
    w.cutAtNanos = cutAtNanos;
    w.onCut = (Consumer<? super Watched>) onCut;
    @SuppressWarnings("deprecation")
    Stripe s = stripes[(int) Thread.currentThread().getId() & (stripes.length - 1)];
    s.lock();
    try {
      w.stripe = s;
      w.prev = null;
      w.next = s.head;
      if (s.head != null) {
        s.head.prev = w;
      }
      s.head = w;
    } finally {
      s.unlock();
    }
    if (cutAtNanos < armedAt) {
      arm(cutAtNanos);
    }
  }

  /** Stops watching {@code w}; does nothing if it is not watched (or was cut already). */
  void unwatch(Watched w) {
    Stripe s = w.stripe;
    if (s == null) {
      return;
    }
    s.lock();
    try {
      if (w.stripe != s) {
        return;
      }
      unlink(s, w);
    } finally {
      s.unlock();
    }
    if (!lingers) {
      rescan();
    }
  }

  /**
   * From now on the end of the last attempt disarms the timer, and if none runs it is disarmed now:
   * the limiter is closing, and its timer must not outlive it.
   */
  void stopLingering() {
    lingers = false;
    rescan();
  }

  /** Whether a timer is armed; for tests that count timers. */
  boolean armed() {
    armLock.lock();
    try {
      return timer != null;
    } finally {
      armLock.unlock();
    }
  }

  private void arm(long atNanos) {
    armLock.lock();
    try {
      if (atNanos >= armedAt) {
        return;
      }
      if (timer != null) {
        timer.cancel();
      }
      armedAt = atNanos;
      long arming = ++armings;
      timer = clock.scheduleAtNanos(() -> fired(arming), atNanos);
    } finally {
      armLock.unlock();
    }
  }

  private void fired(long arming) {
    armLock.lock();
    try {
      if (arming != armings) {
        // Replaced while it was firing: the newer timer is the one that counts.
        return;
      }
    } finally {
      armLock.unlock();
    }
    rescan();
  }

  /**
   * Disarms the timer, then, stripe by stripe, cuts the attempts that are due and arms the timer
   * again for the earliest cut time left.
   */
  private void rescan() {
    long rescan;
    armLock.lock();
    try {
      if (timer != null) {
        timer.cancel();
        timer = null;
      }
      armings++;
      rescan = ++rescans;
      armedAt = Long.MAX_VALUE;
    } finally {
      armLock.unlock();
    }
    long now = clock.monotonicNanos();
    List<Watched> due = new ArrayList<>();
    long earliest = Long.MAX_VALUE;
    for (Stripe s : stripes) {
      s.lock();
      try {
        for (Watched w = s.head; w != null; ) {
          Watched next = w.next;
          if (w.cutAtNanos <= now) {
            unlink(s, w);
            due.add(w);
          } else {
            earliest = Math.min(earliest, w.cutAtNanos);
          }
          w = next;
        }
      } finally {
        s.unlock();
      }
    }
    if (earliest != Long.MAX_VALUE) {
      armFound(earliest, rescan);
    }
    for (Watched w : due) {
      w.onCut.accept(w);
    }
  }

  /**
   * Arms the timer for what rescan number {@code rescan} found, unless a later rescan began since:
   * its scan saw the lists after this one's, and an attempt this one saw may have ended since (a
   * watch that came after either armed the timer itself).
   */
  private void armFound(long atNanos, long rescan) {
    armLock.lock();
    try {
      if (rescan == rescans) {
        arm(atNanos);
      }
    } finally {
      armLock.unlock();
    }
  }

  private static void unlink(Stripe s, Watched w) {
    if (w.prev == null) {
      s.head = w.next;
    } else {
      w.prev.next = w.next;
    }
    if (w.next != null) {
      w.next.prev = w.prev;
    }
    w.prev = null;
    w.next = null;
    w.stripe = null;
  }
}
