/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import dev.sluice.LimiterEvent;
import dev.sluice.LimiterListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link LimiterListener} that records events and lets a test wait for the n-th event of a kind,
 * so a test waits on the event itself rather than on time.
 *
 * <p>Thread-safe.
 */
public final class EventRecorder implements LimiterListener {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final List<LimiterEvent> events = new ArrayList<>();

  @Override
  public void onEvent(LimiterEvent event) {
    lock.lock();
    try {
      events.add(event);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Returns how many events of {@code kind} were recorded. */
  public int count(LimiterEvent.Kind kind) {
    lock.lock();
    try {
      return (int) events.stream().filter(e -> e.kind() == kind).count();
    } finally {
      lock.unlock();
    }
  }

  /** Returns the recorded events of {@code kind}, in order. */
  public List<LimiterEvent> events(LimiterEvent.Kind kind) {
    lock.lock();
    try {
      return events.stream().filter(e -> e.kind() == kind).toList();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until at least {@code n} events of {@code kind} were recorded.
   *
   * @throws AssertionError if that does not happen within {@code timeout}
   */
  public void awaitCount(LimiterEvent.Kind kind, int n, Duration timeout)
      throws InterruptedException {
    long remaining = timeout.toNanos();
    lock.lock();
    try {
      while (countLocked(kind) < n) {
        if (remaining <= 0) {
          throw new AssertionError(
              "expected "
                  + n
                  + " "
                  + kind
                  + " events within "
                  + timeout
                  + ", saw "
                  + countLocked(kind));
        }
        remaining = changed.awaitNanos(remaining);
      }
    } finally {
      lock.unlock();
    }
  }

  private int countLocked(LimiterEvent.Kind kind) {
    int c = 0;
    for (LimiterEvent e : events) {
      if (e.kind() == kind) {
        c++;
      }
    }
    return c;
  }

  /** Waits up to the default safety timeout of 20 s. */
  public void awaitCount(LimiterEvent.Kind kind, int n) throws InterruptedException {
    awaitCount(kind, n, Duration.ofSeconds(20));
  }
}
