/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The pool-wide control state as one transaction saw it: the drain, the shared cooldown and the
 * circuit breaker, shared by every process on the pool. Whatever ends by time alone is judged at
 * that transaction's store time: a cooldown whose end has come is not shown, and an open circuit
 * whose pause has ended is shown {@linkplain Circuit#HALF_OPEN half-open}, whether or not a probe
 * was admitted yet.
 *
 * <p>Immutable and thread-safe.
 *
 * @param generation the latest drain's generation, zero before the first
 * @param draining whether new work is refused now
 * @param activeLeases leases held now (while draining: work accepted before the drain)
 * @param waiters requests queued now
 * @param cooldownUntil the end of a running cooldown, empty when none runs
 * @param circuit where the circuit breaker stands at the status's time
 * @param circuitOpenUntil the end of an open circuit's pause, empty unless {@link Circuit#OPEN} (so
 *     empty once the pause has ended)
 * @param runningOperations managed executions running now, between attempts included (while
 *     draining: work accepted before the drain)
 * @param unconfirmed operations whose owner died before they finished, acknowledged or not
 */
public record ControlStatus(
    long generation,
    boolean draining,
    int activeLeases,
    int waiters,
    Optional<Instant> cooldownUntil,
    Circuit circuit,
    Optional<Instant> circuitOpenUntil,
    int runningOperations,
    List<UnconfirmedOperation> unconfirmed) {

  /** Where a circuit breaker stands. */
  public enum Circuit {
    /** Admissions flow. */
    CLOSED,
    /** The pause runs: nothing is admitted until {@link #circuitOpenUntil}. */
    OPEN,
    /**
     * The pause has ended: the next admission is the one probe, and the others wait while it runs;
     * its outcome closes or reopens the circuit.
     */
    HALF_OPEN
  }

  /** Checks the components. */
  public ControlStatus {
    Objects.requireNonNull(cooldownUntil, "cooldownUntil");
    Objects.requireNonNull(circuit, "circuit");
    Objects.requireNonNull(circuitOpenUntil, "circuitOpenUntil");
    unconfirmed = List.copyOf(unconfirmed);
  }

  /**
   * Whether the pool drains and no work accepted before the drain holds a lease, waits, runs
   * between attempts, or is unconfirmed without an acknowledgement.
   */
  public boolean settled() {
    if (!draining || activeLeases != 0 || waiters != 0 || runningOperations != 0) {
      return false;
    }
    for (UnconfirmedOperation u : unconfirmed) {
      if (!u.acknowledged()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the drain {@linkplain #settled settled} with nothing unconfirmed at all: an
   * acknowledgement settles a drain but never makes it clean; a resume prunes acknowledged records.
   */
  public boolean clean() {
    return settled() && unconfirmed.isEmpty();
  }

  /** The ids of the unconfirmed operations not yet acknowledged. */
  public List<String> unacknowledgedIds() {
    List<String> ids = new ArrayList<>();
    for (UnconfirmedOperation u : unconfirmed) {
      if (!u.acknowledged()) {
        ids.add(u.id());
      }
    }
    return ids;
  }

  /**
   * A managed execution whose owner died before it finished, or a plain lease whose owner died
   * during a drain: whether its work took effect is unknown, so a drain does not settle until an
   * operator {@linkplain Maintenance#acknowledge acknowledges} it.
   *
   * @param id the operation id its attempts saw ({@link ExecutionContext#operationId()}); for a
   *     plain lease ({@code schedule}, {@code acquire}) {@code lease-} and its {@link
   *     Admission#leaseId()}
   * @param owner the owner that ran it
   * @param generation the drain generation when it began
   * @param acknowledged whether it was acknowledged
   * @param reason the acknowledgement's reason, empty if none
   */
  public record UnconfirmedOperation(
      String id, String owner, long generation, boolean acknowledged, String reason) {
    /** Checks the components. */
    public UnconfirmedOperation {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(owner, "owner");
      Objects.requireNonNull(reason, "reason");
    }
  }
}
