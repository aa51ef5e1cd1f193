/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.internal.Claims.Claim;
import dev.sluice.workflow.memory.MemoryWorkflowStore;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.StepKind;
import dev.sluice.workflow.spi.WaiterRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The window between a store condition's test and the execution's suspension, which the conformance
 * suite cannot reach: a change landing there must not be lost.
 */
class StoreUnitsTest {
  private final FixedClock clock = new FixedClock();
  private final MemoryWorkflowStore store =
      MemoryWorkflowStore.named("store-units-" + UUID.randomUUID(), clock);
  private final WorkflowSession me = store.open();
  private final StoreUnits.Document doc = new StoreUnits.Document("tab", "t-1", "{\"paid\":false}");
  private final StoreUnits.Step at =
      new StoreUnits.Step("e", 0, "until-paid", StepKind.STORE_AWAIT);
  private Claim claim;

  @AfterEach
  void close() {
    me.close();
  }

  /** A running execution whose condition ("paid") was just found false: its waiter is written. */
  private void testedFalse(List<String> watched) {
    ExecutionRecord running =
        ExecutionRecord.queued("e", "w", 1, "1", 0).claimedBy(me.ownerId(), 0);
    me.transact(
        tx -> {
          tx.putExecution(running);
          return null;
        });
    claim = Claim.of(running);
    StoreUnits.Result r =
        me.transact(
            tx -> StoreUnits.await(tx, claim, at, doc, watched, state -> state.contains("true")));
    assertThat(r).isInstanceOf(StoreUnits.Parked.class);
  }

  private void pay(String path) {
    me.transact(
        tx ->
            StoreUnits.updateFromOutside(
                tx,
                doc,
                null,
                s -> path.equals("/paid") ? "{\"paid\":true}" : "{\"paid\":false,\"x\":1}"));
  }

  private ExecutionStatus statusAfterPark() {
    boolean parked = me.transact(tx -> Units.park(tx, claim));
    assertThat(parked).isTrue();
    return me.transact(tx -> tx.execution("e")).orElseThrow().status();
  }

  @Test
  void aWatchedChangeBetweenTheTestAndTheSuspensionQueuesTheExecutionAtOnce() {
    testedFalse(List.of("/paid"));
    pay("/paid");
    Optional<WaiterRecord> waiter = me.transact(tx -> tx.waiter("e"));
    assertThat(waiter).as("the change took the waiter").isEmpty();
    assertThat(me.transact(tx -> tx.execution("e")).orElseThrow().status())
        .as("still running: the change does not touch a claimed execution")
        .isEqualTo(ExecutionStatus.RUNNING);
    assertThat(statusAfterPark()).isEqualTo(ExecutionStatus.QUEUED);
  }

  @Test
  void anUnwatchedChangeThereLeavesTheExecutionWaiting() {
    testedFalse(List.of("/paid"));
    pay("/x");
    assertThat(statusAfterPark()).isEqualTo(ExecutionStatus.WAITING);
    Optional<WaiterRecord> waiter = me.transact(tx -> tx.waiter("e"));
    assertThat(waiter.map(WaiterRecord::sinceVersion)).contains(0L);
  }

  @Test
  void aWaitingExecutionIsQueuedByAWatchedChange() {
    testedFalse(List.of(""));
    assertThat(statusAfterPark()).isEqualTo(ExecutionStatus.WAITING);
    pay("/x");
    assertThat(me.transact(tx -> tx.execution("e")).orElseThrow().status())
        .isEqualTo(ExecutionStatus.QUEUED);
    Optional<WaiterRecord> waiter = me.transact(tx -> tx.waiter("e"));
    assertThat(waiter).isEmpty();
  }
}
