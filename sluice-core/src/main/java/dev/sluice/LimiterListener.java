/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

/**
 * Receives {@link LimiterEvent}s, for metrics and tracing. The limiter calls it synchronously on
 * whichever thread made the step, so it must be fast and must not block; an exception it throws is
 * logged and ignored and never changes a request's outcome.
 */
@FunctionalInterface
public interface LimiterListener {
  /**
   * Called for each event.
   *
   * @param event the event
   */
  void onEvent(LimiterEvent event);
}
