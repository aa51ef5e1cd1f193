/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import static dev.sluice.testkit.workflow.Tab.TABS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.workflow.DurableStore;
import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.NonDeterminismException;
import dev.sluice.workflow.StepFailedException;
import dev.sluice.workflow.StoreClient;
import dev.sluice.workflow.StoreSnapshot;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowFailedException;
import dev.sluice.workflow.WorkflowRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Durable stores: reads and changes from workflows and from outside, each applied once. */
public abstract class DurableStoreCases extends WorkflowCase {
  protected DurableStoreCases(WorkflowStoreFactory stores) {
    super(stores);
  }

  private final AtomicInteger updaterRuns = new AtomicInteger();

  /** Counts the tab once, sleeps, then reads it: the update's step replays after the sleep. */
  private final Workflow<String, String> countThenRead =
      Workflow.define(
          "count-then-read",
          String.class,
          String.class,
          (ctx, tabId) -> {
            StoreSnapshot<Tab> counted =
                ctx.store(TABS, tabId)
                    .update(
                        "count",
                        t -> {
                          updaterRuns.incrementAndGet();
                          return t.counted();
                        });
            ctx.sleep("pause", Duration.ofHours(1));
            StoreSnapshot<Tab> read = ctx.store(TABS, tabId).get("read");
            return counted.version() + "/" + counted.state().count() + " then " + read.version();
          });

  @Test
  void aDocumentNeverWrittenReadsAsItsInitialStateAtVersionZero() {
    WorkflowRuntime rt = build(1);
    StoreSnapshot<Tab> s = rt.store(TABS, "never").get();
    assertThat(s.version()).isZero();
    assertThat(s.state()).isEqualTo(new Tab(0, "open", List.of(), null));
  }

  @Test
  void anUpdateIsAppliedOnceAlthoughItsExecutionReplays() {
    WorkflowRuntime rt = runtime(countThenRead);
    Execution<String> run = rt.submit(countThenRead, "ds-1", "tab-1");
    awaitStatus(run, ExecutionStatus.WAITING);
    clock.advance(Duration.ofHours(1));
    assertThat(result(run)).isEqualTo("1/1 then 1");
    assertThat(updaterRuns).as("the replay returned the recorded change").hasValue(1);
    StoreSnapshot<Tab> now = rt.store(TABS, "tab-1").get();
    assertThat(now.version()).isEqualTo(1);
    assertThat(now.state().count()).isEqualTo(1);
  }

  @Test
  void aReadIsReplayedAsFirstReadEvenAfterTheDocumentChanged() {
    Workflow<String, String> wf =
        Workflow.define(
            "read-twice",
            String.class,
            String.class,
            (ctx, tabId) -> {
              StoreSnapshot<Tab> before = ctx.store(TABS, tabId).get("before");
              ctx.sleep("pause", Duration.ofHours(1));
              StoreSnapshot<Tab> after = ctx.store(TABS, tabId).get("after");
              return before.version() + ":" + before.state().status() + " " + after.version();
            });
    WorkflowRuntime rt = runtime(wf);
    Execution<String> run = rt.submit(wf, "ds-2", "tab-2");
    awaitStatus(run, ExecutionStatus.WAITING);
    rt.store(TABS, "tab-2").update(t -> t.withStatus("closed"));
    clock.advance(Duration.ofHours(1));
    assertThat(result(run)).isEqualTo("0:open 1");
  }

  @Test
  void updatesFromTwoRuntimesAreAllAppliedOnce() {
    Workflow<String, Integer> wf =
        Workflow.define(
            "count-shared",
            String.class,
            Integer.class,
            (ctx, tabId) -> ctx.store(TABS, tabId).update("count", Tab::counted).state().count());
    WorkflowRuntime a = runtime(wf);
    WorkflowRuntime b = runtime(wf);
    List<Execution<Integer>> runs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      runs.add((i % 2 == 0 ? a : b).submit(wf, "ds-3-" + i, "shared"));
    }
    List<Integer> seen = new ArrayList<>();
    for (Execution<Integer> r : runs) {
      seen.add(result(r));
    }
    assertThat(seen)
        .as("each change saw the one before it")
        .containsExactlyInAnyOrder(
            java.util.stream.IntStream.rangeClosed(1, 20).boxed().toArray(Integer[]::new));
    StoreSnapshot<Tab> now = a.store(TABS, "shared").get();
    assertThat(now.state().count()).isEqualTo(20);
    assertThat(now.version()).isEqualTo(20);
  }

  @Test
  void anUpdateFromOutsideWithAnIdempotencyKeyIsAppliedOnce() {
    WorkflowRuntime rt = build(1);
    StoreClient<Tab> tab = rt.store(TABS, "tab-4");
    StoreSnapshot<Tab> first = tab.update("event-1", Tab::counted);
    StoreSnapshot<Tab> again = tab.update("event-1", Tab::counted);
    assertThat(again).isEqualTo(first);
    assertThat(first.version()).isEqualTo(1);
    assertThat(tab.update("event-2", Tab::counted).state().count()).isEqualTo(2);
    assertThat(tab.update(Tab::counted).state().count()).as("no key: always applied").isEqualTo(3);
    assertThat(tab.get().version()).isEqualTo(3);
  }

  @Test
  void anUpdateThatChangesNothingKeepsTheVersion() {
    WorkflowRuntime rt = build(1);
    StoreClient<Tab> tab = rt.store(TABS, "tab-5");
    tab.update(Tab::counted);
    StoreSnapshot<Tab> same = tab.update(t -> t);
    assertThat(same.version()).isEqualTo(1);
  }

  @Test
  void anUpdaterFailureInAWorkflowIsRecordedAndReplayedWithoutRunningItAgain() {
    Workflow<String, String> wf =
        Workflow.define(
            "bad-update",
            String.class,
            String.class,
            (ctx, tabId) -> {
              String outcome;
              try {
                ctx.store(TABS, tabId)
                    .update(
                        "refuse",
                        t -> {
                          updaterRuns.incrementAndGet();
                          throw new IllegalStateException("tab is closed");
                        });
                outcome = "applied";
              } catch (StepFailedException e) {
                outcome = e.originalClassName() + ": " + e.originalMessage();
              }
              ctx.sleep("pause", Duration.ofHours(1));
              return outcome;
            });
    WorkflowRuntime rt = runtime(wf);
    Execution<String> run = rt.submit(wf, "ds-6", "tab-6");
    awaitStatus(run, ExecutionStatus.WAITING);
    clock.advance(Duration.ofHours(1));
    assertThat(result(run)).isEqualTo("java.lang.IllegalStateException: tab is closed");
    assertThat(updaterRuns).hasValue(1);
    assertThat(rt.store(TABS, "tab-6").get().version()).as("nothing was written").isZero();
  }

  @Test
  void aReceiptAgesOutWithTheRetention() {
    WorkflowRuntime rt = build(1);
    StoreClient<Tab> tab = rt.store(TABS, "tab-11");
    tab.update("event-11", Tab::counted);
    clock.advance(Duration.ofHours(2));
    assertThat(tab.update("event-11", Tab::counted).version()).isEqualTo(1);
    rt.purge(Duration.ofHours(1));
    assertThat(tab.update("event-11", Tab::counted).version())
        .as("a delivery after the retention is applied again")
        .isEqualTo(2);
  }

  @Test
  void anUpdaterFailureOutsideWorkflowsIsThrownAndChangesNothing() {
    WorkflowRuntime rt = build(1);
    StoreClient<Tab> tab = rt.store(TABS, "tab-7");
    assertThatThrownBy(
            () ->
                tab.update(
                    "event-1",
                    t -> {
                      throw new IllegalStateException("refused");
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("refused");
    assertThatThrownBy(() -> tab.update(t -> null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'tab'")
        .hasMessageContaining("'tab-7'")
        .hasMessageContaining("returned null");
    assertThat(tab.get().version()).isZero();
    assertThat(tab.update("event-1", Tab::counted).version())
        .as("a refused update left no receipt")
        .isEqualTo(1);
  }

  @Test
  void anUpdaterThatUsesTheRuntimeFailsAndTheStoreGoesOn() {
    AtomicReference<WorkflowRuntime> runtime = new AtomicReference<>();
    Workflow<String, String> nested =
        Workflow.define(
            "nested",
            String.class,
            String.class,
            (ctx, tabId) -> {
              try {
                ctx.store(TABS, tabId)
                    .update("nested", t -> runtime.get().store(TABS, "other").get().state());
                return "applied";
              } catch (StepFailedException e) {
                return e.originalClassName();
              }
            });
    WorkflowRuntime rt = runtime(nested);
    runtime.set(rt);
    assertThat(result(rt.submit(nested, "ds-8", "tab-8")))
        .isEqualTo(IllegalStateException.class.getName());

    StoreClient<Tab> tab = rt.store(TABS, "tab-8");
    assertThatThrownBy(() -> tab.update(t -> rt.store(TABS, "other").update(Tab::counted).state()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("updater or condition");
    assertThat(tab.get().version()).isZero();
    assertThat(tab.update(Tab::counted).version()).as("the store still works").isEqualTo(1);
  }

  @Test
  void concurrentDeliveriesWithOneKeyApplyOnce() throws Exception {
    WorkflowRuntime a = build(1);
    WorkflowRuntime b = build(1);
    int callers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(callers);
    try {
      List<Future<StoreSnapshot<Tab>>> answers = new ArrayList<>();
      for (int i = 0; i < callers; i++) {
        WorkflowRuntime rt = i % 2 == 0 ? a : b;
        answers.add(pool.submit(() -> rt.store(TABS, "tab-9").update("event-9", Tab::counted)));
      }
      for (Future<StoreSnapshot<Tab>> f : answers) {
        StoreSnapshot<Tab> s = f.get(SAFETY.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(s.version()).as("every caller sees the one change").isEqualTo(1);
        assertThat(s.state().count()).isEqualTo(1);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(a.store(TABS, "tab-9").get().version()).isEqualTo(1);
  }

  @Test
  void aReplayThatAsksForAnotherDocumentFailsAsNonDeterministic() {
    AtomicReference<String> which = new AtomicReference<>("doc-a");
    Workflow<String, String> fickle =
        Workflow.define(
            "fickle",
            String.class,
            String.class,
            (ctx, in) -> {
              ctx.store(TABS, which.get()).get("read");
              ctx.sleep("pause", Duration.ofHours(1));
              return "done";
            });
    WorkflowRuntime rt = runtime(fickle);
    Execution<String> run = rt.submit(fickle, "ds-10", "x");
    awaitStatus(run, ExecutionStatus.WAITING);
    which.set("doc-b");
    clock.advance(Duration.ofHours(1));
    assertThatThrownBy(() -> result(run))
        .isInstanceOf(WorkflowFailedException.class)
        .hasMessageContaining(NonDeterminismException.class.getName())
        .hasMessageContaining("'doc-a'")
        .hasMessageContaining("'doc-b'");
  }

  @Test
  void badIdsAndDefinitionsAreRefusedNamingTheField() {
    WorkflowRuntime rt = build(1);
    assertThatThrownBy(() -> rt.store(TABS, " "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("store document id");
    assertThatThrownBy(() -> rt.store(TABS, "t").update("", Tab::counted))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("idempotencyKey");
    assertThatThrownBy(() -> DurableStore.define("", Tab.class, () -> null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("durable store name");
    DurableStore<Tab> nothing = DurableStore.define("nothing", Tab.class, () -> null);
    assertThatThrownBy(() -> rt.store(nothing, "t").get())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("initial state of durable store 'nothing' is null");
  }
}
