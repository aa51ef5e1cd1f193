/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.workflow.spi.StepRecord;

/**
 * Why a {@link ReplayContext} threw {@code WorkflowSuspension}, and what the runtime writes once
 * the function has unwound.
 */
sealed interface Suspension {
  /** The step at which the function was stopped. */
  String stepKey();

  /** Wait for a timer: record {@code step} (a new sleep or a failed attempt) if set. */
  record Wait(String stepKey, long dueAt, StepRecord step) implements Suspension {}

  /** Wait for a change of a durable store's document: its waiter is written. */
  record Park(String stepKey) implements Suspension {}

  /** The runtime is closing: put the execution back in the queue for another worker. */
  record Yield(String stepKey) implements Suspension {}

  /** The claim was lost (cancelled or taken over): write nothing more. */
  record Abandon(String stepKey) implements Suspension {}
}
