/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testkit.ManualClock;
import dev.sluice.testkit.NoSkippedCases;
import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.spi.WorkflowStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fixtures shared by the workflow conformance cases: a fresh store name and a manual clock per
 * test, runtimes that are closed after the test, a {@link StoreWatch} to wait on store changes, and
 * a probe that proves a worker has looked at the store since some moment. Waits are on events with
 * a generous safety timeout, never sleeps; each test also has a hard timeout.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@ExtendWith(NoSkippedCases.class)
public abstract class WorkflowCase {
  /** The safety net for waits on events that must happen; never a pacing delay. */
  protected static final Duration SAFETY = Duration.ofSeconds(20);

  /** A workflow every fixture runtime registers; see {@link #probe()}. */
  protected static final Workflow<String, String> PROBE =
      Workflow.define("probe", String.class, String.class, (ctx, s) -> s);

  /** An input type with a field, for payload tests. */
  public record Order(String item, int qty) {}

  private final WorkflowStoreFactory stores;
  private final List<WorkflowRuntime> opened = new ArrayList<>();
  private final AtomicInteger probes = new AtomicInteger();
  private StoreWatch watch;

  /** A manual clock, given to the store of this test. */
  protected final ManualClock clock = new ManualClock();

  /** A store name unique to this test. */
  protected final String storeName = "wf-" + UUID.randomUUID().toString().substring(0, 8);

  /**
   * Creates the case.
   *
   * @param stores the store under test
   */
  protected WorkflowCase(WorkflowStoreFactory stores) {
    this.stores = stores;
  }

  /** A handle on this test's store, on the manual clock. */
  protected WorkflowStore store() {
    return stores.create(storeName, clock);
  }

  /** This test's watch on the store. */
  protected StoreWatch watch() {
    if (watch == null) {
      watch = new StoreWatch(store(), SAFETY);
    }
    return watch;
  }

  /** Builds and starts a runtime with one worker, these workflows and the probe. */
  protected WorkflowRuntime runtime(Workflow<?, ?>... workflows) {
    return runtime(1, workflows);
  }

  /** Builds and starts a runtime with {@code workers} workers; closed after the test. */
  protected WorkflowRuntime runtime(int workers, Workflow<?, ?>... workflows) {
    WorkflowRuntime r = build(workers, workflows);
    r.start();
    return r;
  }

  /** Builds a runtime without starting it; closed after the test. */
  protected WorkflowRuntime build(int workers, Workflow<?, ?>... workflows) {
    return build(b -> b, workers, workflows);
  }

  /**
   * Builds a runtime without starting it, with settings added by {@code settings} after the
   * workflows are registered; closed after the test.
   */
  protected WorkflowRuntime build(
      UnaryOperator<WorkflowRuntime.Builder> settings, int workers, Workflow<?, ?>... workflows) {
    WorkflowRuntime.Builder b = WorkflowRuntime.builder().store(store()).workers(workers);
    b.register(PROBE);
    for (Workflow<?, ?> w : workflows) {
      b.register(w);
    }
    WorkflowRuntime r = settings.apply(b).build();
    opened.add(r);
    return r;
  }

  /**
   * Runs a probe execution on the most recent runtime and waits for it: with one worker, its
   * completion proves that a worker claimed work after this call began, and every claim first fires
   * the timers due by then. So a timer not fired after a probe was not due.
   */
  protected void probe() {
    WorkflowRuntime r = opened.get(opened.size() - 1);
    String id = "probe-" + probes.incrementAndGet();
    assertThat(r.submit(PROBE, id, id).result(SAFETY)).isEqualTo(id);
  }

  /** Waits for an execution's result with the safety timeout. */
  protected static <O> O result(Execution<O> e) {
    return e.result(SAFETY);
  }

  /** Waits for a latch with the safety timeout. */
  protected static void await(CountDownLatch latch) throws InterruptedException {
    assertThat(latch.await(SAFETY.toMillis(), TimeUnit.MILLISECONDS))
        .as("latch released within the safety timeout")
        .isTrue();
  }

  /** Waits until the execution has the status. */
  protected void awaitStatus(Execution<?> e, ExecutionStatus status) {
    watch().awaitStatus(e.id(), status);
  }

  @AfterEach
  void closeOpened() {
    for (WorkflowRuntime r : opened) {
      r.close();
    }
    if (watch != null) {
      watch.close();
    }
  }
}
