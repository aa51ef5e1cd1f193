/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.workflow.spi.FailureRecord;
import dev.sluice.workflow.spi.StepKind;
import dev.sluice.workflow.spi.StepOutcome;
import dev.sluice.workflow.spi.StepRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplayTest {
  private static final FailureRecord BOOM = new FailureRecord("x.Boom", "boom", List.of());

  private static StepRecord step(int position, String key, StepKind kind, StepOutcome outcome) {
    return new StepRecord("e", position, key, kind, outcome, 0);
  }

  private final List<StepRecord> history =
      List.of(
          step(0, "a", StepKind.STEP, new StepOutcome.Value("1")),
          step(1, "nap", StepKind.SLEEP, new StepOutcome.Sleep(100)),
          step(2, "b", StepKind.STEP, new StepOutcome.Retrying(2, 200, BOOM)));

  @Test
  void pastTheHistoryANewStepRunsItsFirstAttempt() {
    assertThat(Replay.decide("e", history, 3, "c", StepKind.STEP, 0)).isEqualTo(new Replay.Run(1));
  }

  @Test
  void aRecordedResultIsReturned() {
    assertThat(Replay.decide("e", history, 0, "a", StepKind.STEP, 0))
        .isEqualTo(new Replay.Recorded(history.get(0)));
  }

  @Test
  void anotherKeyOrKindAtAPositionIsAMismatchNamingBoth() {
    assertThat(Replay.decide("e", history, 0, "z", StepKind.STEP, 0))
        .isInstanceOfSatisfying(
            Replay.Mismatch.class,
            m -> assertThat(m.message()).contains("'z'", "'a'", "position 0", "execution 'e'"));
    assertThat(Replay.decide("e", history, 0, "a", StepKind.SLEEP, 0))
        .isInstanceOf(Replay.Mismatch.class);
  }

  @Test
  void aSleepWaitsUntilItsWakeTimeThenPasses() {
    assertThat(Replay.decide("e", history, 1, "nap", StepKind.SLEEP, 99))
        .isEqualTo(new Replay.Wait(100));
    assertThat(Replay.decide("e", history, 1, "nap", StepKind.SLEEP, 100))
        .isEqualTo(new Replay.Recorded(history.get(1)));
  }

  @Test
  void aRetryWaitsUntilDueThenRunsTheNextAttempt() {
    assertThat(Replay.decide("e", history, 2, "b", StepKind.STEP, 199))
        .isEqualTo(new Replay.Wait(200));
    assertThat(Replay.decide("e", history, 2, "b", StepKind.STEP, 200))
        .isEqualTo(new Replay.Run(3));
  }

  @Test
  void patchedIsTrueOnItsMarkerFalseOnOtherHistoryAndUnknownPastTheEnd() {
    List<StepRecord> h =
        List.of(step(0, "$patch:p", StepKind.PATCH, new StepOutcome.Value("true")));
    assertThat(Replay.patched(h, 0, "$patch:p")).isTrue();
    assertThat(Replay.patched(history, 0, "$patch:p")).isFalse();
    assertThat(Replay.patched(h, 1, "$patch:p")).isNull();
  }

  @Test
  void returningBeforeTheEndOfTheHistoryNamesTheSkippedStep() {
    assertThat(Replay.unfinished("e", history, 1)).contains("'nap'", "position 1");
    assertThat(Replay.unfinished("e", history, 3)).isNull();
  }
}
