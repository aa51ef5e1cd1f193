/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.sluice.LimiterConfig;
import dev.sluice.spi.ControlState.Operation;
import dev.sluice.spi.ControlState.OperationStatus;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The operation records as the pool state keeps them: in the order the operations began, a changed
 * record in its place, every change marking the state dirty and renewing the control state that
 * stores and views read, and no change leaving either alone.
 */
class OperationRecordsTest extends ControlFixture {
  @Test
  void recordsKeepTheOrderTheyBeganInThroughDeathsAcknowledgementsAndEnds() {
    PoolState s = pool(LimiterConfig.builder().maxConcurrent(8).build());
    OperationRules.begun(s, "o1", "a");
    OperationRules.begun(s, "o2", "b");
    OperationRules.begun(s, "o1", "c");
    OperationRules.begun(s, "o2", "d");
    assertThat(ids(s)).containsExactly("a", "b", "c", "d");

    OperationRules.ownersDied(s, Set.of("o2"));
    assertThat(s.control().operations())
        .extracting(Operation::id, Operation::status)
        .containsExactly(
            tuple("a", OperationStatus.RUNNING),
            tuple("b", OperationStatus.UNCONFIRMED),
            tuple("c", OperationStatus.RUNNING),
            tuple("d", OperationStatus.UNCONFIRMED));

    at(s, T0, new PoolCommand.Drain("o1"));
    long generation = s.control().drain().generation();
    AcknowledgeAnswer ack =
        OperationRules.acknowledge(
            s, new PoolCommand.Acknowledge("o1", generation, List.of("d"), "lost with o2"));
    assertThat(ack.stale()).isFalse();
    assertThat(ack.unknown()).isEmpty();
    assertThat(s.control().operations())
        .extracting(Operation::id, Operation::status)
        .containsExactly(
            tuple("a", OperationStatus.RUNNING),
            tuple("b", OperationStatus.UNCONFIRMED),
            tuple("c", OperationStatus.RUNNING),
            tuple("d", OperationStatus.ACKNOWLEDGED));

    assertThat(OperationRules.finished(s, "o2", "a")).as("another owner's record").isFalse();
    assertThat(OperationRules.finished(s, "o1", "a")).isTrue();
    OperationRules.begun(s, "o1", "e");
    OperationRules.begun(s, "o1", "a");
    assertThat(ids(s)).as("an id begun again goes last").containsExactly("b", "c", "d", "e", "a");
    OperationRules.pruneAcknowledged(s);
    OperationRules.retired(s, "o1");
    assertThat(ids(s)).as("the unconfirmed record stays").containsExactly("b");
  }

  @Test
  void everyChangeMarksTheStateDirtyAndRenewsTheControlStateAndNoOtherDoes() {
    PoolState s = pool(LimiterConfig.builder().maxConcurrent(8).build());
    OperationRules.begun(s, "o1", "a");
    assertThat(s.isDirty()).isTrue();
    s.markClean();
    ControlState before = s.control();
    assertThat(s.control()).as("built once per change").isSameAs(before);

    OperationRules.begun(s, "o2", "a");
    assertThat(OperationRules.finished(s, "o2", "a")).isFalse();
    assertThat(OperationRules.finished(s, "o1", "missing")).isFalse();
    OperationRules.ownersDied(s, Set.of("o3"));
    assertThat(s.isDirty()).as("nothing changed").isFalse();
    assertThat(s.control()).isSameAs(before);

    OperationRules.begun(s, "o1", "b");
    assertThat(s.isDirty()).isTrue();
    ControlState after = s.control();
    assertThat(after).isNotSameAs(before);
    assertThat(after.operations()).extracting(Operation::id).containsExactly("a", "b");

    s.markClean();
    assertThat(OperationRules.finished(s, "o1", "a")).isTrue();
    assertThat(s.isDirty()).isTrue();
    assertThat(s.control().operations()).extracting(Operation::id).containsExactly("b");
  }

  @Test
  void aStoredControlStateReplacesTheRecordsInItsOrder() {
    PoolState s = pool(LimiterConfig.builder().maxConcurrent(8).build());
    OperationRules.begun(s, "o1", "a");
    OperationRules.begun(s, "o1", "b");
    Operation c = new Operation("c", "o2", 0, OperationStatus.RUNNING, "");
    Operation a = new Operation("a", "o1", 0, OperationStatus.UNCONFIRMED, "");
    s.markClean();
    s.control(s.control().withOperations(List.of(c, a)));
    assertThat(s.isDirty()).isTrue();
    assertThat(s.control().operations()).containsExactly(c, a);
    assertThat(s.operation("b")).isNull();
    assertThat(s.operation(new String("a".toCharArray()))).isEqualTo(a);

    s.markClean();
    s.control(s.control().withOperations(List.of(c, a)));
    assertThat(s.isDirty()).as("the same records").isFalse();
  }

  private static List<String> ids(PoolState s) {
    return s.control().operations().stream().map(Operation::id).toList();
  }
}
