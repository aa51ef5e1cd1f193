/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import static org.assertj.core.api.Assertions.fail;

import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import dev.sluice.workflow.spi.WorkflowStore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * A test's own session on a workflow store: reads rows, writes rows a runtime would refuse to write
 * (a corrupt payload, a claim of a dead owner), and waits for a condition by sleeping until the
 * store reports a change, never by polling; a generous timeout is only a safety net.
 *
 * <p>Thread-safe.
 */
public final class StoreWatch implements AutoCloseable {
  private final WorkflowSession session;
  private final Duration safety;
  private final Object lock = new Object();
  private long changes;

  /**
   * Opens a session on the store.
   *
   * @param store the store
   * @param safety how long a wait may take before the test fails
   */
  public StoreWatch(WorkflowStore store, Duration safety) {
    this.session = store.open();
    this.safety = safety;
    session.onChange(changed -> changed());
  }

  private void changed() {
    synchronized (lock) {
      changes++;
      lock.notifyAll();
    }
  }

  /** Returns the session, for writing rows directly. */
  public WorkflowSession session() {
    return session;
  }

  /** Reads an execution's row. */
  public Optional<ExecutionRecord> execution(String id) {
    return session.transact(tx -> tx.execution(id));
  }

  /** Reads an execution's status; fails the test if there is no such execution. */
  public ExecutionStatus status(String id) {
    return execution(id)
        .orElseThrow(() -> new AssertionError("no execution '" + id + "' in the store"))
        .status();
  }

  /** Reads an execution's step records. */
  public List<StepRecord> steps(String id) {
    return session.transact(tx -> tx.steps(id));
  }

  /**
   * Waits until {@code condition} holds, re-checking it after every change of the store.
   *
   * @param what the condition, for the failure message
   * @param condition checked at once and after each change
   */
  public void awaitUntil(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + safety.toNanos();
    while (true) {
      long seen;
      synchronized (lock) {
        seen = changes;
      }
      if (condition.getAsBoolean()) {
        return;
      }
      synchronized (lock) {
        while (changes == seen) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            fail("timed out after " + safety + " waiting until " + what);
          }
          try {
            lock.wait(Math.max(1, left / 1_000_000));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted waiting until " + what);
          }
        }
      }
    }
  }

  /** Waits until the execution has the status. */
  public void awaitStatus(String id, ExecutionStatus status) {
    awaitUntil(
        "execution '" + id + "' is " + status,
        () -> execution(id).map(e -> e.status() == status).orElse(false));
  }

  @Override
  public void close() {
    session.close();
  }
}
