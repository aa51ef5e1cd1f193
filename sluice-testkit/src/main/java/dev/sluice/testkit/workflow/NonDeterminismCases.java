/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.NonDeterminismException;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowFailedException;
import dev.sluice.workflow.WorkflowRuntime;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/** Non-determinism fails the execution with a message naming the step; ctx is thread-confined. */
public abstract class NonDeterminismCases extends WorkflowCase {
  protected NonDeterminismCases(WorkflowStoreFactory stores) {
    super(stores);
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertNonDeterministic(
      Execution<?> run) {
    return assertThatThrownBy(() -> result(run))
        .isInstanceOf(WorkflowFailedException.class)
        .cause()
        .isInstanceOf(NonDeterminismException.class);
  }

  @Test
  void aKeyUsedTwiceFailsTheExecutionNamingTheKey() {
    Workflow<String, String> wf =
        Workflow.define(
            "dup",
            String.class,
            String.class,
            (ctx, in) -> {
              ctx.step("same", String.class, () -> "a");
              return ctx.step("same", String.class, () -> "b");
            });
    WorkflowRuntime rt = runtime(wf);
    Execution<String> run = rt.submit(wf, "nd-1", "x");
    assertNonDeterministic(run).hasMessageContaining("'same'").hasMessageContaining("twice");
    assertThat(run.status()).isEqualTo(ExecutionStatus.FAILED);
  }

  @Test
  void aReplayAskingForAnotherStepFailsNamingBothKeys() {
    AtomicBoolean changed = new AtomicBoolean();
    Workflow<String, String> wf =
        Workflow.define(
            "reorder",
            String.class,
            String.class,
            (ctx, in) -> {
              String first = changed.get() ? "b" : "a";
              ctx.step(first, String.class, () -> first);
              ctx.sleep("pause", Duration.ofMinutes(1));
              return "done";
            });
    WorkflowRuntime rt = runtime(wf);
    Execution<String> run = rt.submit(wf, "nd-2", "x");
    awaitStatus(run, ExecutionStatus.WAITING);
    changed.set(true);
    clock.advance(Duration.ofMinutes(1));
    assertNonDeterministic(run)
        .hasMessageContaining("'b'")
        .hasMessageContaining("'a'")
        .hasMessageContaining("position 0");
  }

  @Test
  void aReplayThatSkipsARecordedStepFails() {
    AtomicBoolean changed = new AtomicBoolean();
    Workflow<String, String> wf =
        Workflow.define(
            "skip",
            String.class,
            String.class,
            (ctx, in) -> {
              if (changed.get()) {
                return "shortcut";
              }
              ctx.step("a", String.class, () -> "a");
              ctx.sleep("pause", Duration.ofMinutes(1));
              return "done";
            });
    WorkflowRuntime rt = runtime(wf);
    Execution<String> run = rt.submit(wf, "nd-3", "x");
    awaitStatus(run, ExecutionStatus.WAITING);
    changed.set(true);
    clock.advance(Duration.ofMinutes(1));
    assertNonDeterministic(run).hasMessageContaining("'a'");
  }

  @Test
  void swallowingTheSuspensionAndReturningFailsNamingTheStep() {
    Workflow<String, String> wf =
        Workflow.define(
            "swallow",
            String.class,
            String.class,
            (ctx, in) -> {
              try {
                ctx.sleep("nap", Duration.ofHours(1));
              } catch (Throwable t) {
                // wrong: the suspension must pass
              }
              return "awake too soon";
            });
    WorkflowRuntime rt = runtime(wf);
    assertNonDeterministic(rt.submit(wf, "nd-4", "x")).hasMessageContaining("'nap'");
  }

  @Test
  void swallowingTheSuspensionAndThrowingFailsNamingTheStep() {
    Workflow<String, String> wf =
        Workflow.define(
            "swallow-throw",
            String.class,
            String.class,
            (ctx, in) -> {
              try {
                ctx.sleep("nap", Duration.ofHours(1));
              } catch (Error e) {
                throw new IllegalStateException("converted");
              }
              return "awake too soon";
            });
    WorkflowRuntime rt = runtime(wf);
    assertNonDeterministic(rt.submit(wf, "nd-5", "x")).hasMessageContaining("'nap'");
  }

  @Test
  void theContextUsedFromAnotherThreadThrowsIllegalStateException() {
    Workflow<String, String> wf =
        Workflow.define(
            "escape",
            String.class,
            String.class,
            (ctx, in) -> {
              AtomicReference<Throwable> seen = new AtomicReference<>();
              Thread t =
                  new Thread(
                      () -> {
                        try {
                          ctx.step("elsewhere", String.class, () -> "x");
                        } catch (Throwable e) {
                          seen.set(e);
                        }
                      });
              t.start();
              t.join();
              return String.valueOf(seen.get());
            });
    WorkflowRuntime rt = runtime(wf);
    assertThat(result(rt.submit(wf, "nd-6", "x")))
        .startsWith(IllegalStateException.class.getName())
        .contains("thread");
  }
}
