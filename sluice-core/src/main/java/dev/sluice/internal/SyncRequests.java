/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import java.util.function.LongSupplier;

/**
 * Decides when this JVM's owner must ask the store what became of its queued requests (a {@link
 * dev.sluice.spi.PoolCommand.Sync}), so that wakes coalesce without one being lost.
 *
 * <p>One sync at a time is in flight. A wake that arrives while one is in flight is covered by it
 * only if the store applied that sync after the wake: the store's {@linkplain
 * dev.sluice.spi.PoolSession#appliedSequence() applied sequence}, read when the wake arrives, tells
 * (a sync whose outcome has a higher sequence was applied later). A request whose queue entry
 * became known while a sync was in flight, or after a later-applied sync left it out, needs a sync
 * that includes it.
 *
 * <p>Thread-safe.
 */
final class SyncRequests {
  private final LongSupplier appliedSequence;
  private final Runnable send;
  private boolean inFlight;
  private long wakeMark = -1;
  private boolean rebuild;
  private long lastSynced = -1;

  /**
   * @param appliedSequence the store's applied sequence
   * @param send submits one sync, whose outcome the caller reports to {@link #answered}
   */
  SyncRequests(LongSupplier appliedSequence, Runnable send) {
    this.appliedSequence = appliedSequence;
    this.send = send;
  }

  /** Another owner may have changed the pool. */
  void woken() {
    long mark = appliedSequence.getAsLong();
    synchronized (this) {
      if (inFlight) {
        wakeMark = Math.max(wakeMark, mark);
        return;
      }
      inFlight = true;
    }
    send.run();
  }

  /**
   * A request's queue entry became known from an acquire applied at {@code sequence}: a sync built
   * before now left it out, so if one was applied after that acquire (or is in flight) the request
   * needs another.
   */
  void entryKnown(long sequence) {
    synchronized (this) {
      if (inFlight) {
        rebuild = true;
        return;
      }
      if (lastSynced <= sequence) {
        return;
      }
      inFlight = true;
    }
    send.run();
  }

  /** The in-flight sync was applied at {@code sequence}, or failed ({@code -1}). */
  void answered(long sequence) {
    synchronized (this) {
      lastSynced = Math.max(lastSynced, sequence);
      boolean again = rebuild || (sequence >= 0 && wakeMark >= sequence);
      rebuild = false;
      wakeMark = -1;
      if (!again) {
        inFlight = false;
        return;
      }
    }
    send.run();
  }
}
