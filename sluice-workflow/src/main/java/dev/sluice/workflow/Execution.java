/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import java.time.Duration;

/**
 * A handle on one execution, by id: it reads the store on every call, so it stays valid across
 * restarts and sees what workers in any process did.
 *
 * <p>Thread-safe. {@link #status()} and {@link #cancel()} block only on the store; {@link #result}
 * blocks until the execution finishes or the timeout passes. Every method reads the store through
 * the runtime that returned the handle, and throws {@link IllegalStateException} once that runtime
 * is closed.
 *
 * @param <O> the output type
 */
public interface Execution<O> {
  /** Returns the execution's id. */
  String id();

  /** Returns the execution's current status in the store. */
  ExecutionStatus status();

  /**
   * Waits until the execution finishes and returns its output. The wait ends on the store's
   * notification of a change, not by polling. The timeout is measured on the store's clock.
   *
   * @param timeout how long to wait; zero or less checks once
   * @return the output
   * @throws WorkflowFailedException if the execution failed
   * @throws WorkflowCancelledException if it was cancelled
   * @throws WorkflowTimeoutException if its execution timeout passed before it finished
   * @throws ResultTimeoutException if it has not finished in time, or the thread was interrupted
   */
  O result(Duration timeout);

  /**
   * Cancels the execution unless it has finished. A step body that is running is not interrupted,
   * but its result is not recorded and no later step runs.
   *
   * @return true if this call cancelled it, false if it had already finished
   */
  boolean cancel();
}
