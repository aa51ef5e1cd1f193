/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import dev.sluice.LimiterEvent;
import dev.sluice.LimiterListener;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Records a limiter's events so that a test can wait for the next one it expects, in order, without
 * sleeping: each wait takes events off the log up to the match.
 *
 * <p>Thread-safe for one reading test thread.
 */
final class EventLog implements LimiterListener {
  private static final long SAFETY_SECONDS = 20;

  private final BlockingQueue<LimiterEvent> events = new LinkedBlockingQueue<>();

  @Override
  public void onEvent(LimiterEvent event) {
    events.add(event);
  }

  /** Waits for the next event of {@code type} that matches, dropping the ones before it. */
  <E extends LimiterEvent> E next(Class<E> type, Predicate<E> match) throws InterruptedException {
    while (true) {
      LimiterEvent e = events.poll(SAFETY_SECONDS, TimeUnit.SECONDS);
      if (e == null) {
        throw new AssertionError(
            "no " + type.getSimpleName() + " came within " + SAFETY_SECONDS + " s");
      }
      if (type.isInstance(e) && match.test(type.cast(e))) {
        return type.cast(e);
      }
    }
  }

  /**
   * Waits until attempt {@code attempt} of the next attempt to start ended and its lease was
   * released, which is when its outcome reached the pool; returns how it ended.
   */
  LimiterEvent.AttemptEnded settled(int attempt) throws InterruptedException {
    LimiterEvent.AttemptStarted started =
        next(LimiterEvent.AttemptStarted.class, e -> e.attempt() == attempt);
    LimiterEvent.AttemptEnded ended =
        next(
            LimiterEvent.AttemptEnded.class,
            e -> e.operationId().equals(started.operationId()) && e.attempt() == attempt);
    next(
        LimiterEvent.Request.class,
        e -> e.kind() == LimiterEvent.Kind.RELEASED && e.leaseId() == started.leaseId());
    return ended;
  }
}
