/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.LimiterEvent;
import dev.sluice.LimiterListener;
import dev.sluice.spi.support.Log;
import dev.sluice.spi.support.Logs;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One listener's bounded queue and its delivery: {@link #offer} only adds to the queue (or counts a
 * drop when it is full) and never calls the listener; a task on a shared pool of daemon threads
 * delivers the queue in order, one event at a time, and ends when the queue is empty. A listener
 * that blocks holds one of those threads and loses the events its full queue cannot take; it delays
 * no one else.
 *
 * <p>Thread-safe; nothing here blocks the thread that offers.
 */
final class ListenerDelivery implements LimiterListener.Subscription {
  private static final Log LOG = Logs.of(LimiterListener.class);
  private static final Executor THREADS = listenerThreads();

  private final String pool;
  private final LimiterListener listener;
  private final int capacity;
  private final Runnable onClose;
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();

  // Guarded by this.
  private final ArrayDeque<LimiterEvent> queue = new ArrayDeque<>();
  private boolean draining;
  private boolean closed;

  /**
   * @param capacity the most events waiting for the listener
   * @param onClose what unsubscribing also does: forgets this delivery
   */
  ListenerDelivery(String pool, LimiterListener listener, int capacity, Runnable onClose) {
    this.pool = pool;
    this.listener = listener;
    this.capacity = capacity;
    this.onClose = onClose;
  }

  /** Queues {@code event}, or counts it dropped when the queue is full. */
  void offer(LimiterEvent event) {
    boolean start;
    synchronized (this) {
      if (closed) {
        return;
      }
      if (queue.size() >= capacity) {
        dropped.incrementAndGet();
        return;
      }
      queue.add(event);
      start = !draining;
      draining = true;
    }
    if (start) {
      try {
        THREADS.execute(this::drain);
      } catch (RuntimeException e) {
        // No thread could be made (the JVM is out of them): the events wait for the next offer.
        synchronized (this) {
          draining = false;
        }
      }
    }
  }

  private void drain() {
    while (true) {
      LimiterEvent next;
      synchronized (this) {
        next = closed ? null : queue.poll();
        if (next == null) {
          draining = false;
          return;
        }
      }
      deliver(next);
    }
  }

  private void deliver(LimiterEvent event) {
    try {
      listener.onEvent(event);
    } catch (Throwable e) {
      // Whatever the listener threw, delivery goes on: rethrowing would strand its queue.
      if (failures.getAndIncrement() == 0) {
        LOG.warn(
            "pool '{}': limiter listener {} failed on {}; it keeps receiving events and later"
                + " failures are counted, not logged",
            pool,
            listener,
            event.kind(),
            e);
      }
    }
  }

  @Override
  public long droppedEvents() {
    return dropped.get();
  }

  @Override
  public long failures() {
    return failures.get();
  }

  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      queue.clear();
    }
    onClose.run();
  }

  private static Executor listenerThreads() {
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            0,
            Integer.MAX_VALUE,
            30,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            r -> {
              Thread t = new Thread(r, "sluice-listener-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    return pool;
  }
}
