/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

/**
 * Receives {@link LimiterEvent}s, for metrics, tracing and logs.
 *
 * <p>A listener can never block or break its limiter. Each listener has a bounded queue of its own
 * and is called on a daemon thread of Sluice's ({@code sluice-listener-N}), one event at a time, in
 * the order the events happened; the limiter only adds to the queue. When the queue is full the
 * event is dropped and counted ({@link Subscription#droppedEvents()}). An exception the listener
 * throws is counted, logged once (through SLF4J, if the application has it) and otherwise ignored:
 * the listener keeps receiving the events that follow, and no request's outcome changes.
 *
 * <p>Register a listener for a limiter's whole life with {@link LimiterOptions.Builder#listener}
 * (its subscription is {@link Limiter#optionsListener()}), or for a while with {@link
 * Limiter#listen(LimiterListener)}.
 */
@FunctionalInterface
public interface LimiterListener {
  /**
   * Called for each event, on a listener thread.
   *
   * @param event the event
   */
  void onEvent(LimiterEvent event);

  /**
   * A listener's registration on a limiter: unsubscribes when closed, and tells what its queue
   * dropped. Thread-safe; never blocks.
   */
  interface Subscription extends AutoCloseable {
    /** Events dropped because the listener's queue was full. */
    long droppedEvents();

    /** Calls of the listener that threw. */
    long failures();

    /**
     * Stops delivery: events not yet delivered are discarded, and an event being delivered now is
     * the last. Idempotent.
     */
    @Override
    void close();
  }
}
