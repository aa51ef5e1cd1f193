/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.TimeSource;
import dev.sluice.spi.support.ChangeCounter;
import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.ResultTimeoutException;
import dev.sluice.workflow.TypeRef;
import dev.sluice.workflow.WorkflowCancelledException;
import dev.sluice.workflow.WorkflowCodecException;
import dev.sluice.workflow.WorkflowFailedException;
import dev.sluice.workflow.WorkflowTimeoutException;
import dev.sluice.workflow.spi.ExecutionRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * An {@link Execution} by id, reading the store on every call but one: a wait for the result that
 * starts before any outcome was announced since the handle's row was read uses that row.
 * Thread-safe.
 */
final class ExecutionHandle<O> implements Execution<O> {
  private final WorkflowRuntimeImpl runtime;
  private final String id;
  private final String workflow;
  private final TypeRef<O> outputType;
  private final Known known;

  /**
   * The row as the submit or read that made the handle found it, and the count of the runtime's
   * result signal taken before that: while the count has not moved, no outcome committed since
   * could have been announced, so the row is as good as a new read.
   */
  record Known(ExecutionRecord row, long resultCount) {}

  ExecutionHandle(
      WorkflowRuntimeImpl runtime, String id, String workflow, TypeRef<O> outputType, Known known) {
    this.runtime = runtime;
    this.id = id;
    this.workflow = workflow;
    this.outputType = outputType;
    this.known = known;
  }

  @Override
  public String id() {
    return id;
  }

  private ExecutionRecord read() {
    return runtime
        .read(id)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "execution '"
                        + id
                        + "' of workflow '"
                        + workflow
                        + "' is no longer in the store (purged)"));
  }

  @Override
  public ExecutionStatus status() {
    return read().status();
  }

  @Override
  public O result(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    TimeSource clock = runtime.clock();
    long wait = timeout.isNegative() ? 0 : saturatedNanos(timeout);
    long start = clock.monotonicNanos();
    ChangeCounter signal = runtime.resultSignal();
    while (true) {
      long seen = signal.count();
      ExecutionRecord r = seen == known.resultCount() ? known.row() : read();
      if (r.status().isTerminal()) {
        return outcome(r);
      }
      long left = wait - (clock.monotonicNanos() - start);
      if (left <= 0) {
        throw new ResultTimeoutException(
            "execution '"
                + id
                + "' of workflow '"
                + workflow
                + "' did not finish within "
                + timeout
                + " (status "
                + r.status().code()
                + ")");
      }
      // The deadline arrives as a timer on the store's clock; store changes arrive as wakes.
      TimeSource.Timer deadline = clock.schedule(signal::bump, left);
      if (clock.monotonicNanos() - start >= wait) {
        // The clock passed the deadline while the timer was being set: look once more.
        deadline.cancel();
        continue;
      }
      try {
        signal.awaitAfter(seen);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ResultTimeoutException(
            "interrupted while waiting for execution '" + id + "' of workflow '" + workflow + "'");
      } finally {
        deadline.cancel();
      }
    }
  }

  private static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE / 2;
    }
  }

  private O outcome(ExecutionRecord r) {
    if (r.status() == ExecutionStatus.COMPLETED) {
      try {
        return runtime.codec().decode(r.output(), outputType);
      } catch (WorkflowCodecException e) {
        // The codec knows the type and the field, not whose row it read: every unreadable row is
        // reported with its execution, so the one to repair or cancel can be found.
        throw new WorkflowCodecException(
            "the output of execution '"
                + id
                + "' of workflow '"
                + workflow
                + "' is unreadable: "
                + e.getMessage(),
            e);
      }
    }
    if (r.status() == ExecutionStatus.TIMED_OUT) {
      throw new WorkflowTimeoutException(
          id,
          workflow,
          Duration.ofMillis(r.deadlineAt() - r.createdAt()),
          Instant.ofEpochMilli(r.deadlineAt()));
    }
    if (r.status() == ExecutionStatus.CANCELLED) {
      throw new WorkflowCancelledException(
          "execution '" + id + "' of workflow '" + workflow + "' was cancelled");
    }
    throw new WorkflowFailedException(
        "execution '"
            + id
            + "' of workflow '"
            + workflow
            + "' failed: "
            + Failures.describe(r.failure()),
        Failures.cause(r.failure()));
  }

  @Override
  public boolean cancel() {
    return runtime.cancel(id);
  }

  @Override
  public String toString() {
    return "Execution[" + id + ", workflow " + workflow + "]";
  }
}
