/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.opentelemetry;

import dev.sluice.AttemptOutcome;
import dev.sluice.AttemptTimeoutException;
import dev.sluice.BackendFailureException;
import dev.sluice.CircuitOpenException;
import dev.sluice.ExecutionTimeoutException;
import dev.sluice.LeaseExpiredException;
import dev.sluice.LimiterClosedException;
import dev.sluice.PoolDrainingException;
import dev.sluice.QueueTimeoutException;
import java.util.concurrent.CancellationException;

/** The {@code sluice.outcome} and {@code sluice.attempt.outcome} values. Stateless. */
final class Outcomes {
  private Outcomes() {}

  /**
   * How observed work ended: {@code completed}, {@code failed} (its own code threw), {@code
   * cancelled} (withdrawn by its caller), or why Sluice refused it.
   */
  static String of(Throwable failure) {
    if (failure == null) {
      return "completed";
    }
    if (failure instanceof CancellationException) {
      return "cancelled";
    }
    if (failure instanceof QueueTimeoutException) {
      return "queue_timeout";
    }
    if (failure instanceof LeaseExpiredException) {
      return "lease_expired";
    }
    if (failure instanceof LimiterClosedException) {
      return "closed";
    }
    if (failure instanceof PoolDrainingException) {
      return "draining";
    }
    if (failure instanceof CircuitOpenException) {
      return "circuit_open";
    }
    if (failure instanceof ExecutionTimeoutException) {
      return "execution_timeout";
    }
    if (failure instanceof AttemptTimeoutException) {
      return "attempt_timeout";
    }
    if (failure instanceof BackendFailureException) {
      return "backend_failure";
    }
    return "failed";
  }

  /** The classifier's judgement of an attempt. */
  static String of(AttemptOutcome outcome) {
    if (outcome instanceof AttemptOutcome.Success) {
      return "success";
    }
    if (outcome instanceof AttemptOutcome.Throttle) {
      return "throttle";
    }
    if (outcome instanceof AttemptOutcome.ServiceFailure) {
      return "service_failure";
    }
    return "neutral";
  }
}
