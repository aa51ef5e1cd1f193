/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.ControlStatus;
import dev.sluice.LimiterEvent.Change;
import dev.sluice.TimeSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Supplier;

/**
 * Turns the pool's control state, as this JVM sees it, into {@link Change} events for the listeners
 * of every limiter on the pool. It compares each state it is shown (the answers of this JVM's drain
 * and read commands) with the last one, and reads the state again when it may have changed unseen:
 * after a counted report of an attempt, after another owner's commit, and when a cooldown or an
 * open circuit's pause ends. It reads only while someone listens.
 *
 * <p>Thread-safe. Events are queued under this object's monitor, so listeners see the changes in
 * the order they were observed; queueing never blocks.
 */
final class ControlWatch {
  private final Supplier<CompletableFuture<dev.sluice.spi.ControlView>> read;
  private final TimeSource clock;
  private final CopyOnWriteArraySet<LimiterEvents> audiences = new CopyOnWriteArraySet<>();

  // Guarded by this.
  private ControlStatus last;
  private boolean reading;
  private boolean again;
  private boolean stopped;
  private TimeSource.Timer expiry;

  /**
   * @param read reads the control state; completes on any thread
   * @param clock the store's clock, which the state's instants follow
   */
  ControlWatch(Supplier<CompletableFuture<dev.sluice.spi.ControlView>> read, TimeSource clock) {
    this.read = read;
    this.clock = clock;
  }

  void join(LimiterEvents events) {
    audiences.add(events);
  }

  void leave(LimiterEvents events) {
    audiences.remove(events);
  }

  private boolean listened() {
    for (LimiterEvents e : audiences) {
      if (e.listened()) {
        return true;
      }
    }
    return false;
  }

  /** The state may have changed unseen: reads it once if anyone listens (reads coalesce). */
  void refresh() {
    if (!listened()) {
      return;
    }
    synchronized (this) {
      if (stopped) {
        return;
      }
      if (reading) {
        again = true;
        return;
      }
      reading = true;
    }
    CompletableFuture<dev.sluice.spi.ControlView> f;
    try {
      f = read.get();
    } catch (RuntimeException e) {
      f = CompletableFuture.failedFuture(e);
    }
    f.whenComplete(
        (v, e) -> {
          if (v != null) {
            observe(v);
          }
          boolean more;
          synchronized (this) {
            reading = false;
            more = again && e == null;
            again = false;
          }
          if (more) {
            refresh();
          }
        });
  }

  /** A command answered with the state: tells the listeners what changed since the last one. */
  void observe(dev.sluice.spi.ControlView view) {
    if (!listened()) {
      return;
    }
    ControlStatus now = PoolMaintenance.status(view);
    synchronized (this) {
      if (stopped) {
        return;
      }
      List<Change> changes = changes(last, now);
      last = now;
      armExpiry(now);
      for (Change c : changes) {
        for (LimiterEvents e : audiences) {
          e.controlChanged(c, now);
        }
      }
    }
  }

  /** Reads again when a pause seen in {@code now} ends, so its end is reported too. */
  private void armExpiry(ControlStatus now) {
    if (expiry != null) {
      expiry.cancel();
      expiry = null;
    }
    Optional<Instant> next = earliest(now.cooldownUntil(), now.circuitOpenUntil());
    if (next.isPresent()) {
      // A millisecond late, so the read sees the pause over.
      expiry = clock.scheduleAt(this::refresh, next.get().toEpochMilli() + 1);
    }
  }

  private static Optional<Instant> earliest(Optional<Instant> a, Optional<Instant> b) {
    if (a.isEmpty()) {
      return b;
    }
    if (b.isEmpty()) {
      return a;
    }
    return a.get().isBefore(b.get()) ? a : b;
  }

  /** What changed from {@code before} (null: nothing seen yet, the pool's initial state). */
  static List<Change> changes(ControlStatus before, ControlStatus now) {
    List<Change> out = new ArrayList<>(2);
    Optional<Instant> cooldownBefore = before == null ? Optional.empty() : before.cooldownUntil();
    if (now.cooldownUntil().isPresent()
        && (cooldownBefore.isEmpty() || now.cooldownUntil().get().isAfter(cooldownBefore.get()))) {
      out.add(Change.COOLDOWN_ENTERED);
    } else if (cooldownBefore.isPresent() && now.cooldownUntil().isEmpty()) {
      out.add(Change.COOLDOWN_LEFT);
    }
    ControlStatus.Circuit circuitBefore =
        before == null ? ControlStatus.Circuit.CLOSED : before.circuit();
    boolean reopened =
        now.circuit() == ControlStatus.Circuit.OPEN
            && before != null
            && !now.circuitOpenUntil().equals(before.circuitOpenUntil());
    if (now.circuit() != circuitBefore || reopened) {
      out.add(
          switch (now.circuit()) {
            case OPEN -> Change.CIRCUIT_OPENED;
            case HALF_OPEN -> Change.CIRCUIT_HALF_OPEN;
            case CLOSED -> Change.CIRCUIT_CLOSED;
          });
    }
    boolean drainingBefore = before != null && before.draining();
    long generationBefore = before == null ? 0 : before.generation();
    if (now.draining() && (!drainingBefore || now.generation() != generationBefore)) {
      out.add(Change.DRAIN_STARTED);
    } else if (!now.draining() && drainingBefore) {
      out.add(Change.DRAIN_RESUMED);
    }
    return out;
  }

  /** Stops reading, as the owner retires. */
  synchronized void stop() {
    stopped = true;
    if (expiry != null) {
      expiry.cancel();
      expiry = null;
    }
  }
}
