/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import static dev.sluice.testkit.workflow.Tab.TABS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionDetails;
import dev.sluice.workflow.ExecutionPage;
import dev.sluice.workflow.ExecutionQuery;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowFailedException;
import dev.sluice.workflow.WorkflowInspector;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.StepOutcome;
import dev.sluice.workflow.spi.StepRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The read-only inspection API: executions listed by status and id prefix, newest first, in pages
 * joined by cursors; one execution's steps, timer and wait; counts by status; change listeners.
 */
public abstract class InspectionCases extends WorkflowCase {
  protected InspectionCases(WorkflowStoreFactory stores) {
    super(stores);
  }

  private static final Workflow<String, String> ECHO =
      Workflow.define("echo", String.class, String.class, (ctx, in) -> in);

  private static List<String> ids(ExecutionPage page) {
    return page.executions().stream().map(ExecutionRecord::id).toList();
  }

  /** Submits to a runtime that never starts, one clock second apart unless {@code sameTime}. */
  private WorkflowRuntime queued(String... ids) {
    WorkflowRuntime rt = build(1, ECHO);
    for (String id : ids) {
      rt.submit(ECHO, id, id);
      clock.advance(Duration.ofSeconds(1));
    }
    return rt;
  }

  @Test
  void listsNewestFirstInPagesJoinedByCursors() {
    WorkflowRuntime rt = queued("ex-01", "ex-02", "ex-03", "ex-04", "ex-05");
    WorkflowInspector in = rt.inspector();
    List<String> seen = new ArrayList<>();
    ExecutionPage page = in.executions(ExecutionQuery.builder().limit(2).build());
    seen.addAll(ids(page));
    while (page.nextCursor().isPresent()) {
      page =
          in.executions(ExecutionQuery.builder().limit(2).cursor(page.nextCursor().get()).build());
      assertThat(page.executions()).hasSizeLessThanOrEqualTo(2);
      seen.addAll(ids(page));
    }
    assertThat(seen).containsExactly("ex-05", "ex-04", "ex-03", "ex-02", "ex-01");
    assertThat(in.executions(ExecutionQuery.builder().limit(5).build()).nextCursor())
        .as("a page that holds the rest has no next cursor")
        .isEmpty();
  }

  @Test
  void executionsCreatedAtOneInstantAreOrderedByIdDescending() {
    WorkflowRuntime rt = build(1, ECHO);
    for (String id : List.of("same-b", "same-a", "same-c")) {
      rt.submit(ECHO, id, id);
    }
    ExecutionPage first = rt.inspector().executions(ExecutionQuery.builder().limit(1).build());
    ExecutionPage rest =
        rt.inspector()
            .executions(ExecutionQuery.builder().cursor(first.nextCursor().orElseThrow()).build());
    assertThat(ids(first)).containsExactly("same-c");
    assertThat(ids(rest)).containsExactly("same-b", "same-a");
  }

  @Test
  void filtersByStatusAndCountsEveryStatus() {
    WorkflowRuntime rt = queued("st-1", "st-2", "st-3");
    assertThat(rt.cancel("st-2")).isTrue();
    WorkflowInspector in = rt.inspector();
    ExecutionQuery queued = ExecutionQuery.builder().status(ExecutionStatus.QUEUED).build();
    assertThat(ids(in.executions(queued))).containsExactly("st-3", "st-1");
    ExecutionQuery either =
        ExecutionQuery.builder()
            .status(ExecutionStatus.CANCELLED, ExecutionStatus.COMPLETED)
            .build();
    assertThat(ids(in.executions(either))).containsExactly("st-2");

    Map<ExecutionStatus, Long> counts = in.counts();
    assertThat(counts).hasSize(ExecutionStatus.values().length);
    assertThat(counts.get(ExecutionStatus.QUEUED)).isEqualTo(2L);
    assertThat(counts.get(ExecutionStatus.CANCELLED)).isEqualTo(1L);
    assertThat(counts.get(ExecutionStatus.RUNNING)).isZero();
  }

  @Test
  void searchesByCaseSensitiveIdPrefixAndExactId() {
    WorkflowRuntime rt = queued("ord-a1", "ord-a2", "ord-b1", "ORD-a3", "ord_a4");
    WorkflowInspector in = rt.inspector();
    assertThat(ids(in.executions(ExecutionQuery.builder().idPrefix("ord-a").build())))
        .containsExactly("ord-a2", "ord-a1");
    assertThat(ids(in.executions(ExecutionQuery.builder().idPrefix("ord-b1").build())))
        .containsExactly("ord-b1");
    assertThat(ids(in.executions(ExecutionQuery.builder().idPrefix("zzz").build()))).isEmpty();
    assertThat(in.details("ord-a1")).map(d -> d.execution().input()).contains("\"ord-a1\"");
    assertThat(in.details("ord-a")).as("details takes an exact id").isEmpty();
  }

  @Test
  void detailsShowStepsWithResultsAndTheTimerOfASleep() {
    Workflow<String, String> wf =
        Workflow.define(
            "charge-then-sleep",
            String.class,
            String.class,
            (ctx, in) -> {
              String paid = ctx.step("charge", String.class, () -> "paid " + in);
              ctx.sleep("cool-off", Duration.ofHours(1));
              return paid;
            });
    WorkflowRuntime rt = runtime(wf);
    long start = clock.wallMillis();
    Execution<String> run = rt.submit(wf, "in-1", "x");
    awaitStatus(run, ExecutionStatus.WAITING);

    ExecutionDetails d = rt.inspector().details("in-1").orElseThrow();
    assertThat(d.execution().status()).isEqualTo(ExecutionStatus.WAITING);
    assertThat(d.steps()).extracting(StepRecord::key).containsExactly("charge", "cool-off");
    assertThat(d.steps().get(0).outcome()).isEqualTo(new StepOutcome.Value("\"paid x\""));
    assertThat(d.steps().get(1).outcome()).isInstanceOf(StepOutcome.Sleep.class);
    assertThat(d.timer())
        .hasValueSatisfying(t -> assertThat(t.dueAt()).isEqualTo(start + 3_600_000));
    assertThat(d.storeWait()).isEmpty();

    clock.advance(Duration.ofHours(1));
    assertThat(result(run)).isEqualTo("paid x");
    assertThat(rt.inspector().details("in-1").orElseThrow().timer())
        .as("a finished execution has no timer")
        .isEmpty();
  }

  @Test
  void detailsShowAFinalFailureAndAWaitOnADurableStore() {
    Workflow<String, String> fails =
        Workflow.define(
            "fails",
            String.class,
            String.class,
            (ctx, in) ->
                ctx.step(
                    "charge",
                    String.class,
                    () -> {
                      throw new IllegalStateException("card declined");
                    }));
    Workflow<String, Long> waits =
        Workflow.define(
            "waits",
            String.class,
            Long.class,
            (ctx, tab) ->
                ctx.store(TABS, tab)
                    .awaitCondition(
                        "until-paid", List.of("/status"), t -> t.status().equals("paid"))
                    .version());
    WorkflowRuntime rt = runtime(fails, waits);
    Execution<String> failed = rt.submit(fails, "in-2", "x");
    assertThatThrownBy(() -> result(failed)).isInstanceOf(WorkflowFailedException.class);
    Execution<Long> waiting = rt.submit(waits, "in-3", "tab-9");
    awaitStatus(waiting, ExecutionStatus.WAITING);

    ExecutionDetails f = rt.inspector().details("in-2").orElseThrow();
    assertThat(f.execution().failure().message()).contains("card declined");
    assertThat(f.steps()).hasSize(1);
    assertThat(f.steps().get(0).outcome())
        .isInstanceOfSatisfying(
            StepOutcome.Failed.class,
            o -> assertThat(o.failure().className()).isEqualTo("java.lang.IllegalStateException"));

    ExecutionDetails w = rt.inspector().details("in-3").orElseThrow();
    assertThat(w.storeWait())
        .hasValueSatisfying(
            wr -> {
              assertThat(wr.store()).isEqualTo(TABS.name());
              assertThat(wr.documentId()).isEqualTo("tab-9");
              assertThat(wr.stepKey()).isEqualTo("until-paid");
              assertThat(wr.paths()).containsExactly("/status");
            });
  }

  @Test
  void listenersHearChangesMadeByAnotherRuntime() throws Exception {
    WorkflowRuntime watching = build(1, ECHO);
    CountDownLatch heard = new CountDownLatch(1);
    try (AutoCloseable sub = watching.inspector().onChange(heard::countDown)) {
      WorkflowRuntime other = build(1, ECHO);
      other.submit(ECHO, "heard-1", "x");
      await(heard);
    }
    assertThat(ids(watching.inspector().executions(ExecutionQuery.all()))).contains("heard-1");
  }

  @Test
  void badQueriesAreRefusedNamingTheSetting() {
    WorkflowInspector in = build(1, ECHO).inspector();
    assertThatThrownBy(() -> ExecutionQuery.builder().limit(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("limit")
        .hasMessageContaining("was 0");
    assertThatThrownBy(() -> in.executions(ExecutionQuery.builder().cursor("%%not").build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cursor '%%not'");
  }
}
