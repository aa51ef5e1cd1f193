/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import dev.sluice.local.Pulse;
import dev.sluice.local.PulseWatcher;
import dev.sluice.workflow.spi.Change;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A workflow store's pulse file per kind of change, so that another process learns what a commit
 * changed from which files it pulsed, as a PostgreSQL store's notification payload tells it. A
 * pulse of the plain {@link Pulse#FILE} (an owner that closed, an older Sluice) and lost events
 * count as every kind.
 *
 * <p>Thread-safe (stateless).
 */
final class ChangePulses {
  private ChangePulses() {}

  /** The pulse file of one kind of change. */
  static String file(Change change) {
    return switch (change) {
      case WORK -> "pulse-work";
      case OUTCOME -> "pulse-outcome";
      case PROGRESS -> "pulse-progress";
    };
  }

  /** The files a commit that made {@code changes} pulses. */
  static List<String> files(Set<Change> changes) {
    List<String> files = new ArrayList<>();
    for (Change c : changes) {
      files.add(file(c));
    }
    return files;
  }

  /** What the pulsed files say changed; empty if none of them is a pulse of this store. */
  static Set<Change> changes(PulseWatcher.Pulsed pulsed) {
    if (pulsed.mayHave(Pulse.FILE)) {
      return Change.ALL;
    }
    EnumSet<Change> changes = EnumSet.noneOf(Change.class);
    for (Change c : Change.values()) {
      if (pulsed.files().contains(file(c))) {
        changes.add(c);
      }
    }
    return Set.copyOf(changes);
  }
}
