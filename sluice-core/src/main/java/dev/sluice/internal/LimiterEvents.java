/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.LimiterEvent;
import dev.sluice.LimiterListener;
import dev.sluice.TimeSource;
import dev.sluice.spi.support.Log;
import dev.sluice.spi.support.Logs;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Sends a limiter's events to its listener, if it has one. A listener that throws is logged and
 * otherwise ignored: its failure must not change what happens to the request.
 *
 * <p>Thread-safe; calls the listener on the thread that reports the event.
 */
final class LimiterEvents {
  private static final Log LOG = Logs.of(LimiterEvents.class);

  private final String pool;
  private final TimeSource clock;
  private final LimiterListener listener;
  private final AtomicBoolean failureLogged = new AtomicBoolean();

  /**
   * @param listener the listener, or {@code null} for none
   */
  LimiterEvents(String pool, TimeSource clock, LimiterListener listener) {
    this.pool = pool;
    this.clock = clock;
    this.listener = listener;
  }

  void send(LimiterEvent.Kind kind, TicketCore t) {
    if (listener == null) {
      return;
    }
    try {
      listener.onEvent(
          new LimiterEvent(
              kind,
              pool,
              // A pass may give a queued request its unit while QUEUED goes out: not yet its news.
              kind != LimiterEvent.Kind.QUEUED && t.lease() != null ? t.lease().id() : 0,
              t.weight,
              clock.monotonicNanos()));
    } catch (RuntimeException e) {
      if (failureLogged.compareAndSet(false, true)) {
        LOG.warn(
            "pool '{}': a limiter listener failed on {}; later failures are not logged",
            pool,
            kind,
            e);
      }
    }
  }
}
