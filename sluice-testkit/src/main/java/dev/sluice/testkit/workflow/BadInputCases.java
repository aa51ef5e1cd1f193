/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowFailedException;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.spi.ExecutionRecord;
import org.junit.jupiter.api.Test;

/** Bad input gives a clear error naming the field or value, and the worker goes on. */
public abstract class BadInputCases extends WorkflowCase {
  protected BadInputCases(WorkflowStoreFactory stores) {
    super(stores);
  }

  private final Workflow<Order, String> order =
      Workflow.define(
          "order",
          Order.class,
          String.class,
          (ctx, o) -> ctx.step("place", String.class, () -> o.item() + " x" + o.qty()));

  private void assertWorkerStillRuns(WorkflowRuntime rt, String id) {
    assertThat(result(rt.submit(order, id, new Order("tea", 1)))).isEqualTo("tea x1");
  }

  @Test
  void anUnregisteredWorkflowIsRefusedByName() {
    Workflow<Order, String> stranger =
        Workflow.define("stranger", Order.class, String.class, (ctx, o) -> "?");
    WorkflowRuntime rt = runtime(order);
    assertThatThrownBy(() -> rt.submit(stranger, "b-1", new Order("tea", 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'stranger'")
        .hasMessageContaining("not registered");
    assertThat(watch().execution("b-1")).as("nothing was written").isEmpty();
    assertWorkerStillRuns(rt, "b-1-ok");
  }

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void anInputOfTheWrongTypeIsRefusedNamingBothTypes() {
    WorkflowRuntime rt = runtime(order);
    Workflow raw = order;
    assertThatThrownBy(() -> rt.submit(raw, "b-2", "not an order"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(Order.class.getName())
        .hasMessageContaining("java.lang.String");
    assertWorkerStillRuns(rt, "b-2-ok");
  }

  @Test
  void aStoredPayloadThatDoesNotFitFailsTheExecutionNamingTheField() {
    WorkflowRuntime rt = runtime(order);
    watch()
        .session()
        .transact(
            tx -> {
              tx.putExecution(
                  ExecutionRecord.queued(
                      "b-3", "order", 1, "{\"item\":\"tea\",\"qty\":\"lots\"}", tx.now()));
              return null;
            });
    Execution<String> bad = rt.execution("b-3", String.class).orElseThrow();
    assertThatThrownBy(() -> result(bad))
        .isInstanceOf(WorkflowFailedException.class)
        .hasMessageContaining("qty")
        .hasMessageContaining("lots");
    assertThat(bad.status()).isEqualTo(ExecutionStatus.FAILED);
    assertWorkerStillRuns(rt, "b-3-ok");
  }

  @Test
  void aStoredPayloadThatIsNotJsonFailsTheExecution() {
    WorkflowRuntime rt = runtime(order);
    watch()
        .session()
        .transact(
            tx -> {
              tx.putExecution(ExecutionRecord.queued("b-4", "order", 1, "{\"item\":", tx.now()));
              return null;
            });
    Execution<String> bad = rt.execution("b-4", String.class).orElseThrow();
    assertThatThrownBy(() -> result(bad))
        .isInstanceOf(WorkflowFailedException.class)
        .hasMessageContaining("b-4")
        .hasMessageContaining("input");
    assertWorkerStillRuns(rt, "b-4-ok");
  }

  @Test
  void anUnknownWorkflowInTheStoreIsLeftForARuntimeThatKnowsIt() {
    WorkflowRuntime rt = runtime(order);
    watch()
        .session()
        .transact(
            tx -> {
              tx.putExecution(ExecutionRecord.queued("b-5", "elsewhere", 1, "{}", tx.now()));
              return null;
            });
    assertWorkerStillRuns(rt, "b-5-ok");
    assertThat(watch().status("b-5")).isEqualTo(ExecutionStatus.QUEUED);
  }

  @Test
  void askingForTheWrongOutputTypeIsRefused() {
    WorkflowRuntime rt = runtime(order);
    result(rt.submit(order, "b-6", new Order("tea", 1)));
    assertThatThrownBy(() -> rt.execution("b-6", Integer.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.lang.String")
        .hasMessageContaining("java.lang.Integer");
  }

  @Test
  void badIdsAndKeysAreRefusedBeforeAnythingIsWritten() {
    Workflow<String, String> reserved =
        Workflow.define(
            "reserved",
            String.class,
            String.class,
            (ctx, in) -> ctx.step("$x", String.class, () -> "x"));
    WorkflowRuntime rt = runtime(order, reserved);
    assertThatThrownBy(() -> rt.submit(order, " ", new Order("tea", 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("execution id");
    assertThatThrownBy(() -> result(rt.submit(reserved, "b-7", "x")))
        .isInstanceOf(WorkflowFailedException.class)
        .hasMessageContaining("reserved");
    assertThatThrownBy(() -> Workflow.define("w", 0, String.class, String.class, (c, i) -> i))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("version");
  }
}
