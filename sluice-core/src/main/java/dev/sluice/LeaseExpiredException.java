/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.util.Objects;

/**
 * A request was granted, but its lease had already expired when its callback would have started,
 * for example because the granting thread was delayed. The callback did not run and the lease was
 * released.
 */
public final class LeaseExpiredException extends SluiceException {
  private static final long serialVersionUID = 1L;

  private final transient Admission admission;

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
  }

  /** Returns the admission whose lease expired. */
  public Admission admission() {
    return admission;
  }
}
