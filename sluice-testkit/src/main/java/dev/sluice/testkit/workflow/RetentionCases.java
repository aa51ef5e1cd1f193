/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.RuntimeSettings;
import dev.sluice.workflow.SubmitOptions;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Retention: finished executions are purged automatically once their retention (7 days by default)
 * passed, by the runtime's one armed timer, with no poll; unfinished ones stay whatever their age.
 * Bad settings are refused with the field, the value and the range.
 */
public abstract class RetentionCases extends WorkflowCase {
  protected RetentionCases(WorkflowStoreFactory stores) {
    super(stores);
  }

  private static final Workflow<String, String> ECHO =
      Workflow.define("echo", String.class, String.class, (ctx, in) -> in);

  private static final Workflow<String, String> SLEEPER =
      Workflow.define(
          "sleeper",
          String.class,
          String.class,
          (ctx, in) -> {
            ctx.sleep("long", Duration.ofDays(30));
            return in;
          });

  @Test
  void aFinishedExecutionIsPurgedAfterTheDefaultRetentionAndOthersStay() {
    WorkflowRuntime rt = runtime(ECHO, SLEEPER);
    assertThat(result(rt.submit(ECHO, "old", "a"))).isEqualTo("a");
    Execution<String> sleeping = rt.submit(SLEEPER, "sleeping", "b");
    awaitStatus(sleeping, ExecutionStatus.WAITING);
    clock.advance(Duration.ofDays(1));
    assertThat(result(rt.submit(ECHO, "recent", "c"))).isEqualTo("c");

    clock.advance(Duration.ofDays(6));
    probe();
    assertThat(watch().execution("old")).as("kept for exactly 7 days").isPresent();

    clock.advance(Duration.ofMillis(1));
    watch().awaitUntil("'old' purged", () -> watch().execution("old").isEmpty());
    assertThat(watch().steps("old")).isEmpty();
    assertThat(watch().execution("recent")).as("finished 6 days ago: kept").isPresent();
    assertThat(watch().execution("sleeping"))
        .as("unfinished, however old: kept")
        .hasValueSatisfying(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.WAITING));

    clock.advance(Duration.ofDays(1));
    watch().awaitUntil("'recent' purged", () -> watch().execution("recent").isEmpty());
    assertThat(watch().execution("sleeping")).isPresent();
  }

  @Test
  void aShorterRetentionPurgesSoonerAndManualPurgeStillWorks() {
    WorkflowRuntime rt = build(b -> b.retention(Duration.ofHours(1)), 1, ECHO);
    rt.start();
    assertThat(result(rt.submit(ECHO, "r-1", "a"))).isEqualTo("a");
    clock.advance(Duration.ofMinutes(30));
    assertThat(result(rt.submit(ECHO, "r-2", "b"))).isEqualTo("b");
    assertThat(rt.purge(Duration.ofMinutes(10))).as("the manual purge").isEqualTo(1);
    assertThat(watch().execution("r-1")).isEmpty();

    // r-2 finished 30 minutes after r-1: its hour passes at 90 minutes.
    clock.advance(Duration.ofHours(1));
    probe();
    assertThat(watch().execution("r-2")).isPresent();
    clock.advance(Duration.ofMillis(1));
    watch().awaitUntil("'r-2' purged", () -> watch().execution("r-2").isEmpty());
  }

  @Test
  void badRetentionAndTimeoutSettingsAreRefusedNamingFieldValueAndRange() {
    assertThatThrownBy(() -> settings(b -> b.retention(Duration.ZERO)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContainingAll(
            "retention",
            "PT0S",
            RuntimeSettings.MIN_RETENTION.toString(),
            RuntimeSettings.MAX_RETENTION.toString());
    assertThatThrownBy(() -> settings(b -> b.retention(Duration.ofDays(36_501))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContainingAll("retention", "PT876024H");
    assertThatThrownBy(() -> settings(b -> b.retention(Duration.ofSeconds(-1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContainingAll("retention", "PT-1S");
    assertThatThrownBy(() -> settings(b -> b.executionTimeout("echo", Duration.ZERO)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContainingAll(
            "executionTimeout of workflow 'echo'",
            "PT0S",
            RuntimeSettings.MIN_EXECUTION_TIMEOUT.toString());
    assertThatThrownBy(() -> settings(b -> b.executionTimeout("nope", Duration.ofMinutes(1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContainingAll("'nope'", "not registered");
    assertThatThrownBy(
            () -> SubmitOptions.builder().executionTimeout(Duration.ofMillis(-5)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContainingAll(
            "executionTimeout", "PT-0.005S", RuntimeSettings.MAX_EXECUTION_TIMEOUT.toString());
    assertThatThrownBy(() -> settings(b -> b.retention(null)))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("retention");

    RuntimeSettings ok = settings(b -> b);
    assertThat(ok.retention()).isEqualTo(Duration.ofDays(7));
    assertThat(ok.executionTimeout("echo")).isEmpty();
  }

  private RuntimeSettings settings(
      java.util.function.UnaryOperator<WorkflowRuntime.Builder> settings) {
    return settings.apply(WorkflowRuntime.builder().store(store()).register(ECHO)).settings();
  }
}
