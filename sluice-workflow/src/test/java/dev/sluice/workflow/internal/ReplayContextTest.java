/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.workflow.WorkflowCodec;
import dev.sluice.workflow.WorkflowSuspension;
import dev.sluice.workflow.memory.MemoryWorkflowStore;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The context's own rules, outside any runtime. */
class ReplayContextTest {
  private final FixedClock clock = new FixedClock();
  private final WorkflowSession session =
      MemoryWorkflowStore.named("ctx-" + UUID.randomUUID(), clock).open();
  private final AtomicBoolean closing = new AtomicBoolean();
  private final ReplayContext ctx;

  ReplayContextTest() {
    ExecutionRecord running =
        ExecutionRecord.queued("e", "w", 1, "1", 0).claimedBy(session.ownerId(), 0);
    session.transact(
        tx -> {
          tx.putExecution(running);
          return null;
        });
    ctx =
        new ReplayContext(
            "e",
            List.of(),
            Claims.Claim.of(running),
            session,
            WorkflowCodec.jackson(),
            clock,
            closing::get);
  }

  @AfterEach
  void close() {
    session.close();
  }

  @Test
  void aClosingRuntimeYieldsBeforeANewStepRuns() {
    closing.set(true);
    AtomicBoolean ran = new AtomicBoolean();
    assertThatThrownBy(() -> ctx.step("a", String.class, () -> String.valueOf(ran.getAndSet(true))))
        .isInstanceOf(WorkflowSuspension.class);
    assertThat(ran).isFalse();
    assertThat(ctx.pending()).isEqualTo(new Suspension.Yield("a"));
  }

  @Test
  void aStepIsRecordedBeforeTheNextDurableCallRunsOrHandedToTheRunnerAtTheEnd() {
    assertThat(ctx.step("a", Integer.class, () -> 7)).isEqualTo(7);
    assertThat(ctx.position()).isEqualTo(1);
    assertThat(recordedKeys()).as("kept until the next durable call").isEmpty();

    List<String> seenByTheNextBody = new ArrayList<>();
    assertThat(ctx.step("b", Integer.class, () -> seenByTheNextBody.addAll(recordedKeys()) ? 8 : 0))
        .isEqualTo(8);
    assertThat(seenByTheNextBody)
        .as("written before the next step's body ran")
        .containsExactly("a");

    StepRecord last = ctx.takeUnrecorded();
    assertThat(last.key()).isEqualTo("b");
    assertThat(last.position()).isEqualTo(1);
    assertThat(ctx.takeUnrecorded()).as("handed over once").isNull();
  }

  private List<String> recordedKeys() {
    return session.<List<StepRecord>>transact(tx -> tx.steps("e")).stream()
        .map(StepRecord::key)
        .toList();
  }

  @Test
  void aStepBodyMayNotCallItsContext() {
    assertThatThrownBy(
            () -> ctx.step("outer", String.class, () -> ctx.step("inner", String.class, () -> "x")))
        .isInstanceOf(dev.sluice.workflow.StepFailedException.class)
        .hasMessageContaining("IllegalStateException")
        .hasMessageContaining("must not call");
  }

  @Test
  void reservedAndBlankKeysAreRefused() {
    assertThatThrownBy(() -> ctx.step("$now:0", String.class, () -> "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reserved");
    assertThatThrownBy(() -> ctx.sleep(" ", Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("step key");
    assertThatThrownBy(() -> ctx.sleep("nap", Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PT-1S");
  }

  @Test
  void afterTheFunctionEndedTheContextRefusesCalls() {
    ctx.end();
    assertThatThrownBy(() -> ctx.now())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("after the workflow function returned");
  }

  @Test
  void aSwallowedSuspensionIsThrownAgainOnTheNextCall() {
    WorkflowSuspension first = null;
    try {
      ctx.sleep("nap", Duration.ofMinutes(1));
    } catch (WorkflowSuspension s) {
      first = s;
    }
    assertThat(first).isNotNull();
    assertThatThrownBy(() -> ctx.step("b", String.class, () -> "b")).isSameAs(first);
  }
}
