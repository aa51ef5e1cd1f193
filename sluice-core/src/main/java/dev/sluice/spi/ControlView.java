/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import java.util.Objects;

/**
 * The pool's control state as one command saw it, with what a drain waits for: the leases still
 * held and the requests still queued (all of them work accepted before the drain, since a draining
 * pool refuses new work).
 *
 * <p>Immutable and thread-safe.
 *
 * @param control the cooldown, breaker and drain
 * @param leases live leases
 * @param waiters queued requests
 * @param now the store time of the command
 * @param earliestExpiry no later than the earliest expiry of a live lease, store time, or {@link
 *     PoolState#NEVER} if none can expire: when the leases may settle a drain by time alone
 */
public record ControlView(
    ControlState control, int leases, int waiters, long now, long earliestExpiry) {
  /** Checks the components. */
  public ControlView {
    Objects.requireNonNull(control, "control");
  }

  /**
   * A view that tells no lease expiry ({@link PoolState#NEVER}).
   *
   * @param control the cooldown, breaker and drain
   * @param leases live leases
   * @param waiters queued requests
   * @param now the store time of the command
   */
  public ControlView(ControlState control, int leases, int waiters, long now) {
    this(control, leases, waiters, now, PoolState.NEVER);
  }

  /**
   * Whether the pool drains and no work accepted before the drain holds a lease, waits, or is an
   * operation not finished: running (perhaps between attempts) or unconfirmed and not acknowledged.
   */
  public boolean settled() {
    return control.drain().draining()
        && leases == 0
        && waiters == 0
        && OperationRules.pending(control) == 0;
  }

  /**
   * Where the circuit stands at this view's time. The stored phase stays {@link
   * ControlState.BreakerPhase#OPEN OPEN} until the first admission after the pause becomes the
   * probe, but from the pause's end on a probe may be admitted, so the circuit is already
   * half-open.
   */
  public ControlState.BreakerPhase circuit() {
    ControlState.Breaker b = control.breaker();
    return b.phase() == ControlState.BreakerPhase.OPEN && now >= b.openUntil()
        ? ControlState.BreakerPhase.HALF_OPEN
        : b.phase();
  }

  /** Whether the drain {@linkplain #settled settled} with no operation record at all. */
  public boolean clean() {
    return settled() && control.operations().isEmpty();
  }

  static ControlView of(PoolState s, long now) {
    return new ControlView(
        s.control(), s.leases().size(), s.waiters().size(), now, s.earliestExpiry());
  }
}
