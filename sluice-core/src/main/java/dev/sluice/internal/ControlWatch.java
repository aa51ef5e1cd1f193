/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.ControlStatus;
import dev.sluice.LimiterEvent.Change;
import dev.sluice.TimeSource;
import dev.sluice.spi.ControlState;
import dev.sluice.spi.ControlView;
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
 * after a counted report of an attempt, after another owner's commit the store woke this JVM for
 * (not every commit wakes every owner: see {@link dev.sluice.LimiterEvent.ControlChanged}), and
 * when a cooldown or an open circuit's pause ends. It reads only while someone listens.
 *
 * <p>Ends by time alone are judged at each state's own store time ({@link PoolMaintenance#status}).
 * While someone listens and a pause is known, one timer per pool waits for the earliest end on the
 * store's clock and reads the state then, so {@link Change#COOLDOWN_LEFT} and {@link
 * Change#CIRCUIT_HALF_OPEN} go out at the end itself, before any probe is admitted. A pause this
 * JVM learns of only after its end (nobody listened, or the read came late) is reported at the
 * first state it is shown after the end. If the store's clock lags this JVM's view of it, so that
 * the read at the end still sees the pause, the next read waits out what the store said was left: a
 * computed deadline, never a loop.
 *
 * <p>Answers may be handled out of order (a read's callback on the store's thread, a command's
 * answer on the caller's). A state that is behind the last one shown in the parts that only move
 * forward (drain generation, breaker epoch, cooldown end, and within them whether the pause is
 * over) is ignored, so an overtaken answer never reports a change backwards.
 *
 * <p>Thread-safe. Events are queued under this object's monitor, so listeners see the changes in
 * the order they were observed; queueing never blocks.
 */
final class ControlWatch {
  private final Supplier<CompletableFuture<ControlView>> read;
  private final TimeSource clock;
  private final CopyOnWriteArraySet<LimiterEvents> audiences = new CopyOnWriteArraySet<>();

  // Guarded by this.
  private ControlStatus last;
  private Progress lastProgress;
  private long looked;
  private boolean reading;
  private boolean again;
  private boolean stopped;
  private TimeSource.Timer expiry;

  /**
   * @param read reads the control state; completes on any thread
   * @param clock the store's clock, which the state's instants follow
   */
  ControlWatch(Supplier<CompletableFuture<ControlView>> read, TimeSource clock) {
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
    CompletableFuture<ControlView> f;
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
  void observe(ControlView view) {
    if (!listened()) {
      return;
    }
    ControlStatus now = PoolMaintenance.status(view);
    Progress progress = Progress.of(view);
    synchronized (this) {
      if (stopped || (lastProgress != null && progress.behind(lastProgress))) {
        return;
      }
      List<Change> changes = changes(last, now);
      last = now;
      lastProgress = progress;
      armExpiry(now, view.now());
      for (Change c : changes) {
        for (LimiterEvents e : audiences) {
          e.controlChanged(c, now);
        }
      }
    }
  }

  /**
   * Reads again when a pause seen in {@code now} ends, so its end is reported too.
   *
   * @param viewMillis the store time of the state {@code now} was made from
   */
  private void armExpiry(ControlStatus now, long viewMillis) {
    if (expiry != null) {
      expiry.cancel();
      expiry = null;
    }
    Optional<Instant> next = earliest(now.cooldownUntil(), now.circuitOpenUntil());
    if (next.isEmpty()) {
      return;
    }
    long end = next.get().toEpochMilli();
    long at = end;
    if (end == looked) {
      // Read at the end on this JVM's clock, yet the store still saw the pause: wait out what the
      // store said was left rather than read again at once.
      at = clock.wallMillis() + Math.max(1, end - viewMillis);
    }
    expiry = clock.scheduleAt(() -> expired(end), at);
  }

  private void expired(long end) {
    synchronized (this) {
      looked = end;
    }
    refresh();
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

  /**
   * The parts of a control state that only move forward as the pool's commands follow each other,
   * each with whether what it started has ended by time at the state's store time.
   */
  private record Progress(
      long drainGeneration,
      boolean resumed,
      long breakerEpoch,
      boolean pauseOver,
      long cooldownUntil,
      boolean cooldownOver) {

    static Progress of(ControlView v) {
      ControlState c = v.control();
      return new Progress(
          c.drain().generation(),
          !c.drain().draining(),
          c.breaker().epoch(),
          v.circuit() == ControlState.BreakerPhase.HALF_OPEN,
          c.cooldown().until(),
          c.cooldown().until() <= v.now());
    }

    /**
     * Whether this state is older than {@code o}: behind in some part and ahead in none. (A state
     * ahead in one part and behind in another comes from a clock stepped back; it is taken.)
     */
    boolean behind(Progress o) {
      int[] order = {
        compare(drainGeneration, resumed, o.drainGeneration, o.resumed),
        compare(breakerEpoch, pauseOver, o.breakerEpoch, o.pauseOver),
        compare(cooldownUntil, cooldownOver, o.cooldownUntil, o.cooldownOver)
      };
      boolean back = false;
      for (int c : order) {
        if (c > 0) {
          return false;
        }
        back |= c < 0;
      }
      return back;
    }

    private static int compare(long a, boolean aEnded, long b, boolean bEnded) {
      int c = Long.compare(a, b);
      return c != 0 ? c : Boolean.compare(aEnded, bEnded);
    }
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
