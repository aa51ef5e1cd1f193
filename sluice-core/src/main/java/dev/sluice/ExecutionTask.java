/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

/**
 * One attempt of a managed execution ({@link Limiter#execute(ExecutionTask, ExecuteOptions)}): runs
 * while its attempt holds a lease, and may run again, with a new lease, when the attempt failed in
 * a way worth retrying.
 *
 * <p>Implementations run on the limiter's executor, one attempt at a time per execution; they
 * should check {@link ExecutionContext#cancelled()} in long work, since nothing is ever
 * interrupted.
 *
 * @param <T> the result
 */
@FunctionalInterface
public interface ExecutionTask<T> {
  /**
   * Runs one attempt.
   *
   * @param context the attempt: its admission, the operation id, the attempt number, cancellation
   * @return the result
   * @throws Exception any failure; the classifier decides whether it is worth another attempt
   */
  T run(ExecutionContext context) throws Exception;
}
