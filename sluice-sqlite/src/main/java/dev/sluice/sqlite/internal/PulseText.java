/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import java.util.Set;

/**
 * What a SQLite pool's pulse says: {@code <version> <writer> <owners>}, the owners whose queue
 * entries the commit removed, comma-separated, {@code -} for none, or {@code *} for everyone (when
 * the list would not fit).
 *
 * @param version the commit's version
 * @param writer the writing JVM's token
 * @param owners the owners to wake; meaningless when {@code everyone}
 * @param everyone whether every owner must look
 */
record PulseText(long version, String writer, Set<String> owners, boolean everyone) {
  /** Room for about 300 owners; beyond that the pulse says everyone. */
  static final int MAX_LENGTH = 4000;

  static String format(long version, String writer, Set<String> owners) {
    String head = version + " " + writer + " ";
    String list = owners.isEmpty() ? "-" : String.join(",", owners);
    return head.length() + list.length() > MAX_LENGTH ? head + "*" : head + list;
  }

  /** Parses a pulse; {@code null} if it is not one (then every owner must look). */
  static PulseText parse(String text) {
    String[] parts = text.trim().split(" ");
    if (parts.length != 3) {
      return null;
    }
    long version;
    try {
      version = Long.parseLong(parts[0]);
    } catch (NumberFormatException e) {
      return null;
    }
    String list = parts[2];
    if (list.equals("*")) {
      return new PulseText(version, parts[1], Set.of(), true);
    }
    Set<String> owners = list.equals("-") ? Set.of() : Set.of(list.split(","));
    return new PulseText(version, parts[1], owners, false);
  }
}
