/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import java.time.Instant;
import java.util.Optional;
import org.jline.utils.AttributedString;

/**
 * One screen row of {@code sluice top} and when its text next changes by itself (a countdown), so
 * that the frame knows when to be drawn again.
 *
 * @param line the row, no wider than the screen
 * @param changesAt when the row next reads differently with no change at the gate, or empty
 */
record Row(AttributedString line, Optional<Instant> changesAt) {
  /** A row that only a change at the gate changes. */
  static Row of(AttributedString line) {
    return new Row(line, Optional.empty());
  }
}
