/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import dev.sluice.spi.support.StoredPoolState;
import java.util.Arrays;
import java.util.Set;

/**
 * What a SQLite pool's pulse says: {@code <version> <writer> <owners> <previous>}: the commit's
 * version, the writing JVM, the owners whose queue entries the commit removed or granted
 * (comma-separated, {@code -} for none, {@code *} for everyone when the list would not fit), and
 * the version of the pulse before it ({@code ?} if unknown). Commits between two pulses concerned
 * no owner outside their writer's JVM, so a JVM that examined the previous pulse has seen
 * everything that concerns it. A pulse of three fields (an older Sluice) has no such gaps: its
 * previous pulse is the version before it.
 *
 * @param version the commit's version
 * @param writer the writing JVM's token
 * @param owners the owners to wake; meaningless when {@code everyone}
 * @param everyone whether every owner must look
 * @param previous the previous pulse's version, or {@link #UNKNOWN}
 */
record PulseText(long version, String writer, Set<String> owners, boolean everyone, long previous) {
  /** Room for about 300 owners; beyond that the pulse says everyone. */
  static final int MAX_LENGTH = 4000;

  /** A previous version nobody can have examined: every owner must look. */
  static final long UNKNOWN = StoredPoolState.UNKNOWN;

  static String format(long version, String writer, Set<String> owners, long previous) {
    return format(version, writer, owners, false, previous);
  }

  /** Like {@link #format(long, String, Set, long)}; {@code everyone} names every owner. */
  static String format(
      long version, String writer, Set<String> owners, boolean everyone, long previous) {
    String head = version + " " + writer + " ";
    String tail = " " + (previous == UNKNOWN ? "?" : Long.toString(previous));
    String list = owners.isEmpty() ? "-" : String.join(",", owners);
    return everyone || head.length() + list.length() + tail.length() > MAX_LENGTH
        ? head + "*" + tail
        : head + list + tail;
  }

  /** Parses a pulse; {@code null} if it is not one (then every owner must look). */
  static PulseText parse(String text) {
    String[] parts = text.trim().split(" ");
    if (parts.length != 3 && parts.length != 4) {
      return null;
    }
    long version;
    long previous;
    try {
      version = Long.parseLong(parts[0]);
      previous =
          parts.length == 3
              ? version - 1
              : parts[3].equals("?") ? UNKNOWN : Long.parseLong(parts[3]);
    } catch (NumberFormatException e) {
      return null;
    }
    String list = parts[2];
    if (list.equals("*")) {
      return new PulseText(version, parts[1], Set.of(), true, previous);
    }
    Set<String> owners = list.equals("-") ? Set.of() : Set.copyOf(Arrays.asList(list.split(",")));
    return new PulseText(version, parts[1], owners, false, previous);
  }

  /**
   * The version of the last pulse written, read from the pulse file's text under the gate: 0 if
   * none was ever written, {@link #UNKNOWN} if the text is not a pulse.
   */
  static long lastVersion(String text) {
    if (text.isBlank()) {
      return 0;
    }
    PulseText p = parse(text);
    return p == null ? UNKNOWN : p.version();
  }
}
