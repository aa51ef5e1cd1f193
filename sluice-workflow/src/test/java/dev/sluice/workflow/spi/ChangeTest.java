/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.workflow.ExecutionStatus;
import org.junit.jupiter.api.Test;

class ChangeTest {
  private static final ExecutionRecord QUEUED = ExecutionRecord.queued("x", "w", 1, "\"x\"", 5);

  @Test
  void aQueuedOrWaitingExecutionIsWork() {
    assertThat(Change.ofExecution(QUEUED, "me")).isEqualTo(Change.WORK);
    assertThat(
            Change.ofExecution(
                QUEUED.claimedBy("me", 6).unclaimed(ExecutionStatus.WAITING, 7), "me"))
        .isEqualTo(Change.WORK);
  }

  @Test
  void theWritersOwnClaimIsProgressAndAnotherOwnersIsWork() {
    assertThat(Change.ofExecution(QUEUED.claimedBy("me", 6), "me")).isEqualTo(Change.PROGRESS);
    assertThat(Change.ofExecution(QUEUED.claimedBy("you", 6), "me")).isEqualTo(Change.WORK);
  }

  @Test
  void everyTerminalStatusIsAnOutcome() {
    for (ExecutionStatus s : ExecutionStatus.values()) {
      if (s.isTerminal()) {
        assertThat(Change.ofExecution(QUEUED.claimedBy("me", 6).finished(s, null, null, 7), "me"))
            .as("%s", s)
            .isEqualTo(Change.OUTCOME);
      }
    }
  }

  @Test
  void allIsEveryKindAndImmutable() {
    assertThat(Change.ALL).containsExactlyInAnyOrder(Change.values());
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Change.ALL.add(Change.WORK))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
