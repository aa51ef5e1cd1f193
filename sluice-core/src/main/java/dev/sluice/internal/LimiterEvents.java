/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.AttemptOutcome;
import dev.sluice.ControlStatus;
import dev.sluice.LimiterEvent;
import dev.sluice.LimiterListener;
import dev.sluice.TimeSource;
import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A limiter's listeners and the events it sends them. Sending builds the event only when someone
 * listens, and only queues it: each listener's {@link ListenerDelivery} calls it on a thread of its
 * own, so a slow or failing listener never delays or changes a request.
 *
 * <p>Thread-safe.
 */
final class LimiterEvents {
  /** The queue of a listener given without a capacity. */
  static final int DEFAULT_CAPACITY = 1024;

  private final String pool;
  private final TimeSource clock;
  private final CopyOnWriteArrayList<ListenerDelivery> listeners = new CopyOnWriteArrayList<>();
  private final LimiterListener.Subscription optionsSubscription;

  /**
   * @param listener the listener of the limiter's options, or {@code null} for none
   */
  LimiterEvents(String pool, TimeSource clock, LimiterListener listener) {
    this.pool = pool;
    this.clock = clock;
    this.optionsSubscription = listener == null ? null : listen(listener, DEFAULT_CAPACITY);
  }

  /** The subscription of the listener of the limiter's options, or {@code null} for none. */
  LimiterListener.Subscription optionsSubscription() {
    return optionsSubscription;
  }

  /** Adds a listener with a queue of {@code capacity} events. */
  LimiterListener.Subscription listen(LimiterListener listener, int capacity) {
    ListenerDelivery[] self = new ListenerDelivery[1];
    self[0] = new ListenerDelivery(pool, listener, capacity, () -> listeners.remove(self[0]));
    listeners.add(self[0]);
    return self[0];
  }

  /** Whether anyone listens: events are not even built otherwise. */
  boolean listened() {
    return !listeners.isEmpty();
  }

  void send(LimiterEvent.Kind kind, TicketCore t) {
    if (listeners.isEmpty()) {
      return;
    }
    publish(
        new LimiterEvent.Request(
            kind,
            pool,
            t.ref,
            // A pass may give a queued request its unit while QUEUED goes out: not yet its news.
            kind != LimiterEvent.Kind.QUEUED && t.lease() != null ? t.lease().id() : 0,
            t.weight,
            clock.monotonicNanos()));
  }

  void attemptStarted(String operationId, int attempt, long leaseId) {
    if (!listeners.isEmpty()) {
      publish(
          new LimiterEvent.AttemptStarted(
              pool, operationId, attempt, leaseId, clock.monotonicNanos()));
    }
  }

  void attemptEnded(
      String operationId, int attempt, AttemptOutcome outcome, boolean threw, long startNanos) {
    if (!listeners.isEmpty()) {
      long now = clock.monotonicNanos();
      publish(
          new LimiterEvent.AttemptEnded(
              pool,
              operationId,
              attempt,
              outcome,
              threw,
              Duration.ofNanos(Math.max(0, now - startNanos)),
              now));
    }
  }

  void retryScheduled(String operationId, int nextAttempt, long delayNanos) {
    if (!listeners.isEmpty()) {
      publish(
          new LimiterEvent.RetryScheduled(
              pool,
              operationId,
              nextAttempt,
              Duration.ofNanos(delayNanos),
              clock.monotonicNanos()));
    }
  }

  void controlChanged(LimiterEvent.Change change, ControlStatus status) {
    if (!listeners.isEmpty()) {
      publish(new LimiterEvent.ControlChanged(pool, change, status, clock.monotonicNanos()));
    }
  }

  private void publish(LimiterEvent event) {
    for (ListenerDelivery d : listeners) {
      d.offer(event);
    }
  }
}
