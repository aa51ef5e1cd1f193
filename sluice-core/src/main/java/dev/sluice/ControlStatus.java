/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The pool-wide control state as one transaction saw it: the drain, the shared cooldown and the
 * circuit breaker, shared by every process on the pool.
 *
 * <p>Immutable and thread-safe.
 *
 * @param generation the latest drain's generation, zero before the first
 * @param draining whether new work is refused now
 * @param activeLeases leases held now (while draining: work accepted before the drain)
 * @param waiters requests queued now
 * @param cooldownUntil the end of a running cooldown, empty when none runs
 * @param circuit where the circuit breaker stands
 * @param circuitOpenUntil the end of an open circuit's pause, empty unless open
 */
public record ControlStatus(
    long generation,
    boolean draining,
    int activeLeases,
    int waiters,
    Optional<Instant> cooldownUntil,
    Circuit circuit,
    Optional<Instant> circuitOpenUntil) {

  /** Where a circuit breaker stands. */
  public enum Circuit {
    /** Admissions flow. */
    CLOSED,
    /** Nothing is admitted until the pause ends. */
    OPEN,
    /** One probe is admitted; its outcome closes or reopens the circuit. */
    HALF_OPEN
  }

  /** Checks the components. */
  public ControlStatus {
    Objects.requireNonNull(cooldownUntil, "cooldownUntil");
    Objects.requireNonNull(circuit, "circuit");
    Objects.requireNonNull(circuitOpenUntil, "circuitOpenUntil");
  }

  /** Whether the pool drains and no work accepted before the drain holds a lease or waits. */
  public boolean settled() {
    return draining && activeLeases == 0 && waiters == 0;
  }
}
