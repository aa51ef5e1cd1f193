/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.RuntimeSettings;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Durable sleeps: not early, on time, and no timer armed while nothing waits. */
public abstract class SleepCases extends WorkflowCase {
  protected SleepCases(WorkflowStoreFactory stores) {
    super(stores);
  }

  @Test
  void aDurableSleepDoesNotFireEarlyAndFiresWhenDue() {
    AtomicInteger after = new AtomicInteger();
    Workflow<String, String> wf =
        Workflow.define(
            "cool-off",
            String.class,
            String.class,
            (ctx, in) -> {
              ctx.sleep("cool-off", Duration.ofMinutes(10));
              return ctx.step("ship", String.class, () -> "shipped " + after.incrementAndGet());
            });
    WorkflowRuntime rt = runtime(wf);
    Execution<String> run = rt.submit(wf, "s-1", "x");
    awaitStatus(run, ExecutionStatus.WAITING);

    clock.advance(Duration.ofMinutes(10).minusMillis(1));
    probe();
    assertThat(run.status()).isEqualTo(ExecutionStatus.WAITING);
    assertThat(after).as("nothing after the sleep ran early").hasValue(0);

    clock.advance(Duration.ofMillis(1));
    assertThat(result(run)).isEqualTo("shipped 1");
  }

  @Test
  void sleepUntilAPassedInstantDoesNotSuspend() {
    Workflow<String, String> wf =
        Workflow.define(
            "past",
            String.class,
            String.class,
            (ctx, in) -> {
              ctx.sleepUntil("past", Instant.EPOCH);
              ctx.sleep("zero", Duration.ZERO);
              return "awake";
            });
    WorkflowRuntime rt = runtime(wf);
    assertThat(result(rt.submit(wf, "s-2", "x"))).isEqualTo("awake");
  }

  @Test
  void sleepUntilWakesAtTheInstant() {
    Instant at = clock.instant().plus(Duration.ofHours(3));
    Workflow<String, String> wf =
        Workflow.define(
            "until",
            String.class,
            String.class,
            (ctx, in) -> {
              ctx.sleepUntil("alarm", at);
              return ctx.now().toString();
            });
    WorkflowRuntime rt = runtime(wf);
    Execution<String> run = rt.submit(wf, "s-3", "x");
    awaitStatus(run, ExecutionStatus.WAITING);
    clock.advance(Duration.ofHours(3).minusMillis(1));
    probe();
    assertThat(run.status()).isEqualTo(ExecutionStatus.WAITING);
    clock.advance(Duration.ofMillis(1));
    assertThat(result(run)).isEqualTo(at.toString());
  }

  @Test
  void anIdleRuntimeArmsNoTimer() {
    Workflow<String, String> wf =
        Workflow.define(
            "nap",
            String.class,
            String.class,
            (ctx, in) -> {
              ctx.sleep("nap", Duration.ofSeconds(5));
              return in;
            });
    WorkflowRuntime rt = runtime(wf);
    Execution<String> run = rt.submit(wf, "s-4", "x");
    awaitStatus(run, ExecutionStatus.WAITING);
    clock.advance(Duration.ofSeconds(5));
    assertThat(result(run)).isEqualTo("x");
    probe();
    // Nothing sleeps, so no timer is armed for a sleep; the one timer an idle runtime may arm is
    // for the retention of its finished executions, a week away.
    long now = clock.monotonicNanos();
    assertThat(clock.pendingDueNanos())
        .as("nothing waits, so nothing is armed but the retention purge")
        .hasSizeLessThanOrEqualTo(1)
        .allSatisfy(
            due ->
                assertThat(due - now)
                    .isGreaterThanOrEqualTo(RuntimeSettings.DEFAULT_RETENTION.toNanos()));
  }
}
