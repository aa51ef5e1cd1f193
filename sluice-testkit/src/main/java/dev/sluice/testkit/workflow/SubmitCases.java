/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionConflictException;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Submit is idempotent per execution id; another workflow or input conflicts. */
public abstract class SubmitCases extends WorkflowCase {
  protected SubmitCases(WorkflowStoreFactory stores) {
    super(stores);
  }

  private final AtomicInteger runs = new AtomicInteger();

  private final Workflow<Order, String> order =
      Workflow.define(
          "order",
          Order.class,
          String.class,
          (ctx, o) ->
              ctx.step(
                  "place",
                  String.class,
                  () -> o.item() + " x" + o.qty() + " #" + runs.incrementAndGet()));

  private final Workflow<Order, String> other =
      Workflow.define("other", Order.class, String.class, (ctx, o) -> o.item());

  @Test
  void theSameWorkflowAndInputReturnTheSameExecution() {
    WorkflowRuntime rt = runtime(order, other);
    Execution<String> first = rt.submit(order, "o-1", new Order("tea", 2));
    Execution<String> again = rt.submit(order, "o-1", new Order("tea", 2));
    assertThat(again.id()).isEqualTo(first.id());
    assertThat(result(first)).isEqualTo("tea x2 #1");
    assertThat(result(again)).isEqualTo("tea x2 #1");

    Execution<String> afterwards = rt.submit(order, "o-1", new Order("tea", 2));
    assertThat(result(afterwards)).isEqualTo("tea x2 #1");
    assertThat(runs).as("one execution, one run").hasValue(1);
  }

  @Test
  void anotherInputUnderTheSameIdConflicts() {
    WorkflowRuntime rt = runtime(order, other);
    rt.submit(order, "o-2", new Order("tea", 2));
    assertThatThrownBy(() -> rt.submit(order, "o-2", new Order("tea", 3)))
        .isInstanceOf(ExecutionConflictException.class)
        .hasMessageContaining("o-2")
        .hasMessageContaining("another input");
  }

  @Test
  void anotherWorkflowUnderTheSameIdConflicts() {
    WorkflowRuntime rt = runtime(order, other);
    rt.submit(order, "o-3", new Order("tea", 2));
    assertThatThrownBy(() -> rt.submit(other, "o-3", new Order("tea", 2)))
        .isInstanceOf(ExecutionConflictException.class)
        .hasMessageContaining("o-3")
        .hasMessageContaining("'order'");
  }

  @Test
  void executionsAreFoundByIdAndUnknownIdsAreEmpty() {
    WorkflowRuntime rt = runtime(order, other);
    result(rt.submit(order, "o-4", new Order("jam", 1)));
    assertThat(rt.execution("o-4", String.class))
        .hasValueSatisfying(e -> assertThat(result(e)).isEqualTo("jam x1 #1"));
    assertThat(rt.execution("nope", String.class)).isEmpty();
  }
}
