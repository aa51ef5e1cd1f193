/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import dev.sluice.gate.PoolStatus;
import java.util.ArrayList;
import java.util.List;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;

/**
 * A pool's line in {@code sluice top}: its name, the weight used out of its capacity (an alert when
 * a capacity decrease left it over-subscribed), and how many requests hold, are offered, queue and
 * are paused, leaving out the groups that are empty. Stateless and thread-safe; never blocks.
 */
final class PoolLine {
  private PoolLine() {}

  /** The pool's line, not yet cut to a width. */
  static AttributedString of(PoolStatus p, TopStyles styles) {
    AttributedStringBuilder b = new AttributedStringBuilder();
    b.append(Cells.clean(p.name()), styles.heading());
    b.append("  ");
    Tone use = p.used() > p.capacity() ? Tone.ALERT : Tone.PLAIN;
    b.append(p.used() + "/" + p.capacity() + " used", styles.of(use));
    List<String> counts = new ArrayList<>();
    count(counts, p.holders().size(), "held");
    count(counts, p.offers().size(), "offered");
    count(counts, p.queued().size(), "queued");
    count(counts, p.paused().size(), "paused");
    b.append("  ").append(counts.isEmpty() ? "idle" : String.join(", ", counts));
    return b.toAttributedString();
  }

  private static void count(List<String> counts, int n, String what) {
    if (n > 0) {
      counts.add(n + " " + what);
    }
  }
}
