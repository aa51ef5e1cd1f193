/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.workflow.spi.StepKind;
import dev.sluice.workflow.spi.StepOutcome;
import dev.sluice.workflow.spi.StepRecord;
import java.util.List;

/**
 * The replay rule, as pure functions of the recorded steps, the position the workflow function has
 * reached, what it asks for there, and the store's time: return the recorded outcome, run the body,
 * wait for a timer, or report non-determinism. Steps are matched by position and key: the function
 * must ask for the recorded steps in the recorded order before it asks for anything new.
 */
final class Replay {
  private Replay() {}

  /** What to do when the function asks for a step. */
  sealed interface Decision {}

  /** Return the recorded outcome: a value, a final failure, or an elapsed sleep. */
  record Recorded(StepRecord step) implements Decision {}

  /** Nothing final is recorded: run the body (attempt 1 for a new step), or start a new sleep. */
  record Run(int attempt) implements Decision {}

  /** A retry or a sleep is recorded and not yet due. */
  record Wait(long dueAt) implements Decision {}

  /** The function asked for something else than the history holds here. */
  record Mismatch(String message) implements Decision {}

  /**
   * Decides a step, sleep, {@code now} or {@code randomUuid} call.
   *
   * @param executionId for messages
   * @param recorded the execution's steps by position
   * @param position how many steps the function has passed in this run
   * @param key the key asked for
   * @param kind the kind of call
   * @param now the store's time
   * @return the decision
   */
  static Decision decide(
      String executionId,
      List<StepRecord> recorded,
      int position,
      String key,
      StepKind kind,
      long now) {
    if (position >= recorded.size()) {
      return new Run(1);
    }
    StepRecord r = recorded.get(position);
    if (!r.key().equals(key) || r.kind() != kind) {
      return new Mismatch(
          "execution '"
              + executionId
              + "' asked for "
              + kind.code()
              + " '"
              + key
              + "' at position "
              + position
              + ", but "
              + r.kind().code()
              + " '"
              + r.key()
              + "' was recorded there: the workflow function must ask for the same steps in the"
              + " same order on every replay");
    }
    StepOutcome o = r.outcome();
    if (o instanceof StepOutcome.Retrying retrying) {
      return now >= retrying.retryAt()
          ? new Run(retrying.failedAttempts() + 1)
          : new Wait(retrying.retryAt());
    }
    if (o instanceof StepOutcome.Sleep sleep && now < sleep.wakeAt()) {
      return new Wait(sleep.wakeAt());
    }
    return new Recorded(r);
  }

  /**
   * Decides {@code patched(changeId)}: true where the marker is recorded at this position (it is
   * consumed); false where other history is recorded here (history from before the change; nothing
   * is consumed); {@code null} past the end of the history, where a marker must be recorded.
   */
  static Boolean patched(List<StepRecord> recorded, int position, String markerKey) {
    if (position >= recorded.size()) {
      return null;
    }
    StepRecord r = recorded.get(position);
    return r.kind() == StepKind.PATCH && r.key().equals(markerKey);
  }

  /**
   * Checks, when the function returned, that it passed every recorded step.
   *
   * @return the message naming the first step it skipped, or null if it passed them all
   */
  static String unfinished(String executionId, List<StepRecord> recorded, int position) {
    if (position >= recorded.size()) {
      return null;
    }
    StepRecord r = recorded.get(position);
    return "execution '"
        + executionId
        + "' returned without asking for "
        + r.kind().code()
        + " '"
        + r.key()
        + "', recorded at position "
        + position;
  }
}
