/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.local.Pulse;
import dev.sluice.local.PulseWatcher.Pulsed;
import dev.sluice.workflow.spi.Change;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChangePulsesTest {
  @Test
  void theFilesACommitPulsesReadBackAsItsChanges() {
    for (Set<Change> made :
        List.of(
            Set.of(Change.PROGRESS),
            Set.of(Change.WORK, Change.PROGRESS),
            Set.of(Change.OUTCOME),
            Change.ALL)) {
      Pulsed pulsed = new Pulsed(new HashSet<>(ChangePulses.files(made)), false);
      assertThat(ChangePulses.changes(pulsed)).as("%s", made).isEqualTo(made);
    }
  }

  @Test
  void thePlainPulseAndLostEventsAreEveryChange() {
    assertThat(ChangePulses.changes(new Pulsed(Set.of(Pulse.FILE), false)))
        .as("an owner that closed, or an older Sluice")
        .isEqualTo(Change.ALL);
    assertThat(ChangePulses.changes(new Pulsed(Set.of(), true)))
        .as("events lost")
        .isEqualTo(Change.ALL);
  }

  @Test
  void aFileThatIsNoPulseOfTheStoreIsNoChange() {
    assertThat(ChangePulses.changes(new Pulsed(Set.of("something-else"), false))).isEmpty();
  }
}
