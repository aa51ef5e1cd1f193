/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.util.Objects;
import java.util.Optional;

/**
 * A request was granted, but its lease had already expired when its callback would have started,
 * for example because the granting thread was delayed, or because the owning process was paused
 * while another process's transaction granted it and the lease expired before the owner looked. The
 * callback did not run and the lease was released.
 *
 * <p>Immutable; thread-safe.
 */
public final class LeaseExpiredException extends SluiceException {
  private static final long serialVersionUID = 1L;

  private final transient Admission admission;
  private final long leaseId;
  private final long weight;

  /**
   * Creates the exception.
   *
   * @param pool the pool that granted the lease
   * @param admission the expired admission
   */
  public LeaseExpiredException(String pool, Admission admission) {
    super(
        "lease "
            + admission.leaseId()
            + " of pool '"
            + pool
            + "' expired at "
            + admission.expiresAt().map(Object::toString).orElse("?")
            + " before its callback could start");
    this.admission = Objects.requireNonNull(admission, "admission");
    this.leaseId = admission.leaseId();
    this.weight = admission.weight();
  }

  /**
   * Creates the exception for a grant this process never saw: the store granted the lease while the
   * owner was paused (SIGSTOP, a long GC pause, an overloaded machine) or cut off, and the lease
   * expired or was reclaimed before the owner looked.
   *
   * @param pool the pool that granted the lease
   * @param leaseId the lease, which is the request's queue entry
   * @param weight the request's weight
   */
  public LeaseExpiredException(String pool, long leaseId, long weight) {
    super(
        "lease "
            + leaseId
            + " of pool '"
            + pool
            + "' was granted, but expired or was reclaimed before this process saw the grant"
            + " (it was paused or cut off from the store); its callback did not start");
    this.admission = null;
    this.leaseId = leaseId;
    this.weight = weight;
  }

  /**
   * Returns the admission whose lease expired; empty when this process never saw the grant, so its
   * times and fencing token are unknown here.
   */
  public Optional<Admission> admission() {
    return Optional.ofNullable(admission);
  }

  /** Returns the expired lease's id. */
  public long leaseId() {
    return leaseId;
  }

  /** Returns the weight the lease held. */
  public long weight() {
    return weight;
  }
}
