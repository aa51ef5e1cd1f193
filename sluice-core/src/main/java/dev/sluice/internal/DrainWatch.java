/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.StaleDrainException;
import dev.sluice.TimeSource;
import dev.sluice.spi.ControlView;
import dev.sluice.spi.PoolState;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The waits for drains to settle ({@code limiter.maintenance().await}): each wait registers here,
 * and the pool reads its control state once after each change it hears of (a release of its own, a
 * change announced by another owner), and once when a lease may have expired: a lease that expires
 * changes nothing anyone announces, yet may settle the drain. That one timer is armed for the
 * earliest expiry the last read showed, only while someone waits. Reads do not overlap: a change
 * heard while one is on its way makes one more read after it.
 *
 * <p>Thread-safe.
 */
final class DrainWatch {
  private record Waiter(long generation, CompletableFuture<Boolean> settled) {}

  private final String pool;
  private final Supplier<CompletableFuture<ControlView>> read;
  private final List<Waiter> waiters = new ArrayList<>();

  /** Whether anyone waits: read without the lock on every release, which is the common case. */
  private volatile boolean watched;

  private final TimeSource clock;
  private boolean reading;
  private boolean again;

  /** The read at the earliest lease expiry, or null; guarded by this. */
  private TimeSource.Timer expiry;

  /** The store time {@link #expiry} is armed for, or {@link PoolState#NEVER}; guarded by this. */
  private long expiryAt = PoolState.NEVER;

  /**
   * @param pool the pool's name, for messages
   * @param read reads the control state; the future completes on any thread
   * @param clock the store's clock, whose timer reads again when a lease may have expired
   */
  DrainWatch(String pool, Supplier<CompletableFuture<ControlView>> read, TimeSource clock) {
    this.pool = pool;
    this.read = read;
    this.clock = clock;
  }

  /**
   * Watches the drain of {@code generation}: the future completes with true once it settled, or
   * with a {@link StaleDrainException} once it is not the running drain.
   */
  CompletableFuture<Boolean> watch(long generation) {
    CompletableFuture<Boolean> settled = new CompletableFuture<>();
    Waiter w = new Waiter(generation, settled);
    synchronized (this) {
      waiters.add(w);
      watched = true;
    }
    settled.whenComplete((r, e) -> forget(w));
    changed();
    return settled;
  }

  /** The pool may have changed: read it once if anyone waits. */
  void changed() {
    if (!watched) {
      return;
    }
    synchronized (this) {
      if (waiters.isEmpty()) {
        return;
      }
      if (reading) {
        again = true;
        return;
      }
      reading = true;
    }
    read.get().whenComplete(this::answered);
  }

  private void answered(ControlView view, Throwable failure) {
    List<Waiter> now;
    synchronized (this) {
      now = List.copyOf(waiters);
    }
    for (Waiter w : now) {
      if (failure != null) {
        w.settled().completeExceptionally(CommandRunner.unwrap(failure));
      } else if (view.control().drain().generation() != w.generation()
          || !view.control().drain().draining()) {
        w.settled()
            .completeExceptionally(
                new StaleDrainException(
                    pool,
                    w.generation(),
                    view.control().drain().generation(),
                    view.control().drain().draining()));
      } else if (view.settled()) {
        w.settled().complete(true);
      }
    }
    boolean more;
    synchronized (this) {
      reading = false;
      more = again;
      again = false;
      armExpiry(failure == null && !waiters.isEmpty() ? view : null);
    }
    if (more) {
      changed();
    }
  }

  /**
   * Arms the read at the earliest lease expiry {@code view} shows, or disarms it for {@code null}
   * or a view where no lease can expire; under the lock.
   */
  private void armExpiry(ControlView view) {
    long at = view == null ? PoolState.NEVER : view.earliestExpiry();
    if (at == expiryAt) {
      return;
    }
    if (expiry != null) {
      expiry.cancel();
      expiry = null;
    }
    expiryAt = at;
    if (at != PoolState.NEVER) {
      // The expiry is in store time; the wait till then is the same length on this clock. A read
      // at or after it expires the lease, and shows the next expiry, always a later one.
      long delayMillis = Math.max(1, at - view.now());
      expiry = clock.schedule(this::expiryPassed, delayMillis * 1_000_000L);
    }
  }

  private void expiryPassed() {
    synchronized (this) {
      expiry = null;
      expiryAt = PoolState.NEVER;
    }
    changed();
  }

  private synchronized void forget(Waiter w) {
    waiters.remove(w);
    watched = !waiters.isEmpty();
    if (!watched) {
      armExpiry(null);
    }
  }
}
