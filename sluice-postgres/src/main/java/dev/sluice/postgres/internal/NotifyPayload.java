/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * The payload of a pool's NOTIFY: which JVM's pool view wrote the commit, and the owners it
 * concerns, or every owner. Owner ids contain no spaces; a payload that would pass PostgreSQL's
 * limit names every owner instead.
 *
 * @param writer the token of the pool view that committed
 * @param everyone whether every owner must look
 * @param owners the owners that must look, when not everyone
 */
record NotifyPayload(String writer, boolean everyone, Set<String> owners) {
  private static final String VERSION = "1";
  private static final String ALL = "*";

  /** PostgreSQL refuses payloads of 8000 bytes and more; owner ids are ASCII. */
  private static final int MAX_LENGTH = 7000;

  /** Checks the components and copies the set. */
  NotifyPayload {
    owners = Set.copyOf(owners);
  }

  /** A payload that asks every owner to look. */
  static NotifyPayload everyone(String writer) {
    return new NotifyPayload(writer, true, Set.of());
  }

  /** A payload naming {@code owners}. */
  static NotifyPayload naming(String writer, Set<String> owners) {
    return new NotifyPayload(writer, false, owners);
  }

  /** The text sent. */
  String text() {
    if (everyone) {
      return VERSION + " " + writer + " " + ALL;
    }
    StringBuilder b = new StringBuilder(VERSION).append(' ').append(writer);
    for (String o : owners) {
      b.append(' ').append(o);
      if (b.length() > MAX_LENGTH) {
        return everyone(writer).text();
      }
    }
    return b.toString();
  }

  /** Reads a payload; one this Sluice does not understand (a newer one) asks everyone to look. */
  static NotifyPayload parse(String text) {
    String[] parts = text == null ? new String[0] : text.split(" ");
    if (parts.length < 2 || !parts[0].equals(VERSION)) {
      return everyone("");
    }
    if (parts.length == 3 && parts[2].equals(ALL)) {
      return everyone(parts[1]);
    }
    return naming(parts[1], new HashSet<>(Arrays.asList(parts).subList(2, parts.length)));
  }
}
