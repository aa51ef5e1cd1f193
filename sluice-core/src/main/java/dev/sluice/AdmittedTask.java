/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

/**
 * A callback that runs once its request is admitted, and receives the {@link Admission}.
 *
 * @param <T> the callback's result
 */
@FunctionalInterface
public interface AdmittedTask<T> {
  /**
   * Runs the work while the lease is held.
   *
   * @param admission the granted lease
   * @return the result
   * @throws Exception any failure, passed unchanged to the caller
   */
  T run(Admission admission) throws Exception;
}
