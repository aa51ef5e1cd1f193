/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import java.util.List;
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
public record ControlState(
    Cooldown cooldown, Breaker breaker, Drain drain, List<Operation> operations) {
  /** The control state of a pool that never used any of it. */
  public static final ControlState NONE =
      new ControlState(Cooldown.NONE, Breaker.CLOSED, Drain.NONE, List.of());

  /** Checks that no part is missing and copies the operations. */
  public ControlState {
    Objects.requireNonNull(cooldown, "cooldown");
    Objects.requireNonNull(breaker, "breaker");
    Objects.requireNonNull(drain, "drain");
    operations = List.copyOf(operations);
  }

  /**
   * A control state without operation records.
   *
   * @param cooldown the shared cooldown
   * @param breaker the circuit breaker
   * @param drain the pool-wide drain
   */
  public ControlState(Cooldown cooldown, Breaker breaker, Drain drain) {
    this(cooldown, breaker, drain, List.of());
  }

  /** This state with another cooldown. */
  public ControlState withCooldown(Cooldown next) {
    return next == cooldown ? this : new ControlState(next, breaker, drain, operations);
  }

  /** This state with another breaker. */
  public ControlState withBreaker(Breaker next) {
    return next == breaker ? this : new ControlState(cooldown, next, drain, operations);
  }

  /** This state with another drain. */
  public ControlState withDrain(Drain next) {
    return next.equals(drain) ? this : new ControlState(cooldown, breaker, next, operations);
  }

  /** This state with other operation records. */
  public ControlState withOperations(List<Operation> next) {
    return new ControlState(cooldown, breaker, drain, next);
  }

  /**
   * Component by component, as a record compares; the operation records' counts first and each part
   * by identity before its contents. A pool's state compares the next control state with the last
   * on every command that sets one, under the store's lock, and the records differ by their count
   * whenever an operation begins or finishes. The record's own hash code agrees with it.
   */
  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof ControlState c)) {
      return false;
    }
    return operations.size() == c.operations.size()
        && (drain == c.drain || drain.equals(c.drain))
        && (cooldown == c.cooldown || cooldown.equals(c.cooldown))
        && (breaker == c.breaker || breaker.equals(c.breaker))
        && (operations == c.operations || operations.equals(c.operations));
  }

  /** Whether this is {@link #NONE}. */
  public boolean isNone() {
    return equals(NONE);
  }

  /**
   * A pause of every admission of the pool after a throttle.
   *
   * @param epoch counts the cooldowns started, so that one burst of throttles escalates once
   * @param step how many times the pause escalated since the last reset, zero when reset
   * @param until store time before which nothing is admitted, zero for none
   * @param fence the last fencing token issued when the current epoch began: an attempt whose lease
   *     has a token at or below it was admitted before, and its report is stale
   */
  public record Cooldown(long epoch, int step, long until, long fence) {
    /** No cooldown ever started. */
    public static final Cooldown NONE = new Cooldown(0, 0, 0, 0);
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
   * @param epoch counts the openings and closings
   * @param step how many times the open pause escalated (failed probes)
   * @param openUntil store time at which an open circuit admits a probe, zero when closed
   * @param consecutiveFailures service failures in a row while closed
   * @param fence the last fencing token issued at the last opening or closing: reports of attempts
   *     admitted before it are not evidence
   * @param probe the probe of a half-open circuit, {@link Probe#NONE} while none runs
   * @param samples for the percentage rule: reported successes and failures per millisecond inside
   *     the window, oldest first
   */
  public record Breaker(
      BreakerPhase phase,
      long epoch,
      int step,
      long openUntil,
      int consecutiveFailures,
      long fence,
      Probe probe,
      List<Sample> samples) {
    /** A closed circuit that never opened. */
    public static final Breaker CLOSED =
        new Breaker(BreakerPhase.CLOSED, 0, 0, 0, 0, 0, Probe.NONE, List.of());

    /** Checks the components and copies the samples. */
    public Breaker {
      Objects.requireNonNull(phase, "phase");
      Objects.requireNonNull(probe, "probe");
      samples = List.copyOf(samples);
    }
  }

  /**
   * The one admission of a half-open circuit.
   *
   * @param leaseId its lease, zero for none
   * @param expiresAt store time after which another admission may replace it
   */
  public record Probe(long leaseId, long expiresAt) {
    /** No probe. */
    public static final Probe NONE = new Probe(0, 0);
  }

  /**
   * Successes and service failures reported in one millisecond, for the percentage rule.
   *
   * @param at store time
   * @param failures service failures
   * @param total successes and service failures
   */
  public record Sample(long at, int failures, int total) {}

  /** Where an operation record stands. */
  public enum OperationStatus {
    /** Its owner runs it: an attempt holds a lease, waits, or waits to be retried. */
    RUNNING,
    /** Its owner died before it finished: whether its work took effect is unknown. */
    UNCONFIRMED,
    /** Unconfirmed, and an operator accepted that with a reason; pruned when the drain ends. */
    ACKNOWLEDGED
  }

  /**
   * A managed execution the pool knows of: recorded when its first attempt is queued or admitted,
   * removed when it finishes, kept as {@link OperationStatus#UNCONFIRMED unconfirmed} when its
   * owner dies first, so that a drain knows of work whose outcome nobody can tell.
   *
   * @param id the operation id, as its attempts see it
   * @param owner the owner that runs it
   * @param generation the drain generation when it began (the latest, drained or not)
   * @param status where it stands
   * @param reason why it was acknowledged; empty otherwise
   */
  public record Operation(
      String id, String owner, long generation, OperationStatus status, String reason) {
    /** Checks the components. */
    public Operation {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(owner, "owner");
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(reason, "reason");
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
