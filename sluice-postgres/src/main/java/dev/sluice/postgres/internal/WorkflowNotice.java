/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.workflow.spi.Change;
import java.util.EnumSet;
import java.util.Set;

/**
 * The payload of a workflow store's NOTIFY: which JVM's view of the store committed, and what the
 * commit changed, so that another JVM wakes an idle worker only for work. A payload this Sluice
 * does not understand (an older or a newer one) counts as every kind of change.
 *
 * @param writer the token of the store view that committed
 * @param changes what the commit changed, never empty
 */
record WorkflowNotice(String writer, Set<Change> changes) {
  private static final String VERSION = "w1";

  /** Checks the components and copies the set. */
  WorkflowNotice {
    if (changes.isEmpty()) {
      throw new IllegalArgumentException("a notice names at least one change");
    }
    changes = Set.copyOf(changes);
  }

  /** The text sent: the version, the writer and one letter per change. */
  String text() {
    StringBuilder b = new StringBuilder(VERSION).append(' ').append(writer).append(' ');
    for (Change c : changes) {
      b.append(letter(c));
    }
    return b.toString();
  }

  /** Reads a payload; one that does not parse names every change and no writer. */
  static WorkflowNotice parse(String text) {
    String[] parts = text == null ? new String[0] : text.split(" ");
    if (parts.length != 3 || !parts[0].equals(VERSION)) {
      return new WorkflowNotice("", Change.ALL);
    }
    EnumSet<Change> changes = EnumSet.noneOf(Change.class);
    for (char l : parts[2].toCharArray()) {
      Change c = change(l);
      if (c == null) {
        return new WorkflowNotice(parts[1], Change.ALL);
      }
      changes.add(c);
    }
    return changes.isEmpty()
        ? new WorkflowNotice(parts[1], Change.ALL)
        : new WorkflowNotice(parts[1], changes);
  }

  private static char letter(Change c) {
    return switch (c) {
      case WORK -> 'w';
      case OUTCOME -> 'o';
      case PROGRESS -> 'p';
    };
  }

  private static Change change(char letter) {
    for (Change c : Change.values()) {
      if (letter(c) == letter) {
        return c;
      }
    }
    return null;
  }
}
