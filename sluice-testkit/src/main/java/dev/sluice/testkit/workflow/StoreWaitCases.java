/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import static dev.sluice.testkit.workflow.Tab.TABS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.StepFailedException;
import dev.sluice.workflow.SubmitOptions;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowFailedException;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.spi.WaiterRecord;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Waits on durable stores: a waiting execution holds no worker and is woken by a change of a path
 * it watches, and by nothing else.
 */
public abstract class StoreWaitCases extends WorkflowCase {
  protected StoreWaitCases(WorkflowStoreFactory stores) {
    super(stores);
  }

  private final AtomicInteger tests = new AtomicInteger();

  /** Waits until the tab's condition holds, watching {@code paths}; returns the version seen. */
  private Workflow<String, Long> waitFor(String name, List<String> paths, Predicate<Tab> holds) {
    return Workflow.define(
        name,
        String.class,
        Long.class,
        (ctx, tabId) ->
            ctx.store(TABS, tabId)
                .awaitCondition(
                    "until",
                    paths,
                    t -> {
                      tests.incrementAndGet();
                      return holds.test(t);
                    })
                .version());
  }

  private final Workflow<String, Long> untilPaid =
      waitFor("until-paid", List.of("/status"), t -> t.status().equals("paid"));

  @Test
  void aConditionThatHoldsReturnsAtOnce() {
    WorkflowRuntime rt = runtime(untilPaid);
    rt.store(TABS, "w-1").update(t -> t.withStatus("paid"));
    assertThat(result(rt.submit(untilPaid, "sw-1", "w-1"))).isEqualTo(1L);
    assertThat(tests).hasValue(1);
  }

  @Test
  void aWaitWakesOnAChangeOfAWatchedPathOnly() {
    WorkflowRuntime rt = runtime(untilPaid);
    Execution<Long> run = rt.submit(untilPaid, "sw-2", "w-2");
    awaitStatus(run, ExecutionStatus.WAITING);
    assertThat(tests).hasValue(1);

    rt.store(TABS, "w-2").update(Tab::counted);
    rt.store(TABS, "w-2").update(t -> t.noted("not the status"));
    probe();
    // Still the waiter written by the first test: a wake would have replaced or removed it.
    Optional<WaiterRecord> waiter = watch().session().transact(tx -> tx.waiter("sw-2"));
    assertThat(waiter.map(WaiterRecord::sinceVersion))
        .as("changes of other paths woke nothing")
        .contains(0L);
    assertThat(tests).hasValue(1);

    rt.store(TABS, "w-2").update(t -> t.withStatus("billed"));
    watch()
        .awaitUntil(
            "the condition was tested again and is waiting",
            () -> tests.get() == 2 && watch().status("sw-2") == ExecutionStatus.WAITING);

    rt.store(TABS, "w-2").update(t -> t.withStatus("paid"));
    assertThat(result(run)).isEqualTo(4L);
    assertThat(tests).hasValue(3);
  }

  @Test
  void aWatcherSeesChangesBelowAndAboveItsPath() {
    Workflow<String, Long> noted =
        waitFor("until-noted", List.of("/notes"), t -> !t.notes().isEmpty());
    Workflow<String, Long> byCard =
        waitFor(
            "until-card",
            List.of("/payment/method"),
            t -> t.payment() != null && t.payment().method().equals("card"));
    WorkflowRuntime rt = runtime(noted, byCard);
    Execution<Long> a = rt.submit(noted, "sw-3a", "w-3");
    Execution<Long> b = rt.submit(byCard, "sw-3b", "w-3");
    awaitStatus(a, ExecutionStatus.WAITING);
    awaitStatus(b, ExecutionStatus.WAITING);

    // Appending touches /notes/0, below the watched /notes.
    rt.store(TABS, "w-3").update(t -> t.noted("first"));
    assertThat(result(a)).isEqualTo(1L);
    // Replacing the whole payment touches /payment, above the watched /payment/method.
    rt.store(TABS, "w-3").update(t -> t.paid(new Tab.Payment("card", 500)));
    assertThat(result(b)).isEqualTo(2L);
  }

  @Test
  void aChangeByAnotherWorkflowWakesTheWaiter() {
    Workflow<String, Integer> payer =
        Workflow.define(
            "payer",
            String.class,
            Integer.class,
            (ctx, tabId) ->
                ctx.store(TABS, tabId).update("pay", t -> t.withStatus("paid")).state().count());
    WorkflowRuntime rt = runtime(untilPaid, payer);
    Execution<Long> waiting = rt.submit(untilPaid, "sw-4", "w-4");
    awaitStatus(waiting, ExecutionStatus.WAITING);
    result(rt.submit(payer, "sw-4-payer", "w-4"));
    assertThat(result(waiting)).isEqualTo(1L);
  }

  @Test
  void aWaitingExecutionOutlivesItsRuntimeAndIsWokenThroughTheNext() {
    WorkflowRuntime first = runtime(untilPaid);
    Execution<Long> run = first.submit(untilPaid, "sw-5", "w-5");
    awaitStatus(run, ExecutionStatus.WAITING);
    first.close();

    WorkflowRuntime second = runtime(untilPaid);
    second.store(TABS, "w-5").update(t -> t.withStatus("paid"));
    assertThat(result(second.execution("sw-5", Long.class).orElseThrow())).isEqualTo(1L);
  }

  @Test
  void aCancelledOrTimedOutWaiterIsNeverWoken() {
    WorkflowRuntime rt = runtime(untilPaid);
    Execution<Long> cancelled = rt.submit(untilPaid, "sw-6a", "w-6");
    Execution<Long> timed =
        rt.submit(
            untilPaid,
            "sw-6b",
            "w-6",
            SubmitOptions.builder().executionTimeout(Duration.ofMinutes(5)).build());
    awaitStatus(cancelled, ExecutionStatus.WAITING);
    awaitStatus(timed, ExecutionStatus.WAITING);
    assertThat(cancelled.cancel()).isTrue();
    clock.advance(Duration.ofMinutes(5));
    awaitStatus(timed, ExecutionStatus.TIMED_OUT);
    List<WaiterRecord> left = watch().session().transact(tx -> tx.waiters(TABS.name(), "w-6"));
    assertThat(left).as("their waiters went with them").isEmpty();

    int before = tests.get();
    rt.store(TABS, "w-6").update(t -> t.withStatus("paid"));
    probe();
    assertThat(tests).hasValue(before);
    assertThat(cancelled.status()).isEqualTo(ExecutionStatus.CANCELLED);
    assertThat(timed.status()).isEqualTo(ExecutionStatus.TIMED_OUT);
  }

  @Test
  void aConditionThatThrowsFailsItsStepAndLeavesNoWaiter() {
    Workflow<String, String> brittle =
        Workflow.define(
            "brittle",
            String.class,
            String.class,
            (ctx, tabId) -> {
              try {
                ctx.store(TABS, tabId)
                    .awaitCondition(
                        "until",
                        List.of("/status"),
                        t -> {
                          throw new IllegalStateException("cannot judge " + t.status());
                        });
                return "met";
              } catch (StepFailedException e) {
                return e.originalMessage();
              }
            });
    WorkflowRuntime rt = runtime(brittle);
    assertThat(result(rt.submit(brittle, "sw-8", "w-8"))).isEqualTo("cannot judge open");
    Optional<WaiterRecord> waiter = watch().session().transact(tx -> tx.waiter("sw-8"));
    assertThat(waiter).isEmpty();
  }

  @Test
  void aWatchedPathThatIsNotAJsonPointerFailsTheExecutionNamingIt() {
    Workflow<String, Long> bad = waitFor("bad-path", List.of("status"), t -> true);
    WorkflowRuntime rt = runtime(bad);
    assertThatThrownBy(() -> result(rt.submit(bad, "sw-7", "w-7")))
        .isInstanceOf(WorkflowFailedException.class)
        .hasMessageContaining("'status'")
        .hasMessageContaining("JSON Pointer");
    assertThat(tests).hasValue(0);
  }
}
