/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import java.util.Objects;

/**
 * The pool-wide control state of managed execution, kept with the rest of a pool's state so that
 * every store persists it in the same transaction as the leases and queue: the shared cooldown, the
 * circuit breaker and the drain. A pool that never used them holds {@link #NONE}, which a store
 * need not write at all.
 *
 * <p>Immutable and thread-safe.
 *
 * @param cooldown the shared cooldown
 * @param breaker the circuit breaker
 * @param drain the pool-wide drain
 */
public record ControlState(Cooldown cooldown, Breaker breaker, Drain drain) {
  /** The control state of a pool that never used any of it. */
  public static final ControlState NONE =
      new ControlState(Cooldown.NONE, Breaker.CLOSED, Drain.NONE);

  /** Checks that no part is missing. */
  public ControlState {
    Objects.requireNonNull(cooldown, "cooldown");
    Objects.requireNonNull(breaker, "breaker");
    Objects.requireNonNull(drain, "drain");
  }

  /** Whether this is {@link #NONE}. */
  public boolean isNone() {
    return equals(NONE);
  }

  /**
   * A pause of every admission of the pool after a throttle.
   *
   * @param epoch counts the cooldowns started, so that one burst of throttles escalates once
   * @param step how many times the pause doubled, zero when none is running
   * @param until store time before which nothing is admitted, zero for none
   */
  public record Cooldown(long epoch, int step, long until) {
    /** No cooldown ever started. */
    public static final Cooldown NONE = new Cooldown(0, 0, 0);
  }

  /** Where a circuit breaker stands. */
  public enum BreakerPhase {
    /** Admissions flow. */
    CLOSED,
    /** Nothing is admitted until the pause ends. */
    OPEN,
    /** One probe is admitted; its outcome closes or reopens the circuit. */
    HALF_OPEN
  }

  /**
   * The circuit breaker.
   *
   * @param phase where it stands
   * @param epoch counts the openings, so that a stale probe's report is refused
   * @param step how many times the open pause doubled
   * @param openUntil store time at which an open circuit admits a probe, zero when closed
   * @param consecutiveFailures service failures in a row while closed
   */
  public record Breaker(
      BreakerPhase phase, long epoch, int step, long openUntil, int consecutiveFailures) {
    /** A closed circuit that never opened. */
    public static final Breaker CLOSED = new Breaker(BreakerPhase.CLOSED, 0, 0, 0, 0);

    /** Checks the phase. */
    public Breaker {
      Objects.requireNonNull(phase, "phase");
    }
  }

  /**
   * The pool-wide drain.
   *
   * @param generation numbers the drains started, zero before the first
   * @param draining whether new work is refused now
   */
  public record Drain(long generation, boolean draining) {
    /** Never drained. */
    public static final Drain NONE = new Drain(0, false);
  }
}
