/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.util.concurrent.CompletionStage;

/**
 * What one attempt of a managed execution knows: the lease it runs under, the operation it belongs
 * to, which attempt it is, and whether it was cancelled.
 *
 * <p>An attempt is cancelled when the execution's future is cancelled or completed from outside,
 * when the overall deadline or the attempt timeout passes, never for another reason. Cancellation
 * does not interrupt the thread and does not release the lease: the attempt keeps its lease until
 * the task returns, so a task that sees {@link #cancelled()} should stop soon.
 *
 * <p>Thread-safe; nothing blocks.
 */
public interface ExecutionContext {
  /** The admission of this attempt's lease, with its fencing token; each attempt has its own. */
  Admission admission();

  /**
   * The operation's id, the same for every attempt of one execution and unique among executions:
   * pass it to the downstream service as an idempotency key.
   */
  String operationId();

  /** The attempt's number, 1 for the first. */
  int attempt();

  /** Whether this attempt was cancelled; see the type's description. */
  boolean cancelled();

  /**
   * A stage that completes when this attempt is cancelled, for tasks that wait on something they
   * can abandon; it never completes for an attempt that was not cancelled. Its continuations run on
   * the thread that cancels, so they must be short.
   */
  CompletionStage<Void> cancellation();
}
