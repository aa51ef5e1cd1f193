/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.util.List;

/**
 * What {@code diagnose} found: why each pool's head waits, long holders, and holders whose liveness
 * is doubtful.
 *
 * @param findings one line each, pool by pool
 */
public record Diagnosis(List<Finding> findings) {
  /** Copies the list. */
  public Diagnosis {
    findings = List.copyOf(findings);
  }

  /**
   * One finding.
   *
   * @param pool the pool
   * @param requestId the request it is about, or empty
   * @param kind {@code head_waits}, {@code long_hold}, {@code holder_dead}, {@code
   *     holder_unverifiable} (another pid namespace), {@code launcher_gone}, {@code lease_due} or
   *     {@code not_started} (claimed, waiting for its start deadline)
   * @param message a sentence for people; it does not repeat the request id, a field of its own
   */
  public record Finding(String pool, String requestId, String kind, String message) {}
}
