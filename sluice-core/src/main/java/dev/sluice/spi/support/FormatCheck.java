/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi.support;

import dev.sluice.StoreFormatException;
import java.util.Collection;
import java.util.stream.Collectors;

/**
 * The one check of a store's recorded format id, with the one message every store gives when it
 * refuses another: what it found, what this Sluice reads, and that nothing was changed. A store
 * records its format id when it creates its data and checks it, before anything is written, on
 * every open.
 *
 * <p>Thread-safe (stateless).
 */
public final class FormatCheck {
  private FormatCheck() {}

  /**
   * Returns {@code found} if it is one of {@code known}.
   *
   * @param what names the data in the message, such as {@code pool /x: state.db}
   * @param found the recorded format id, or {@code null} if none is recorded
   * @param known the format ids this Sluice reads, oldest first
   * @return {@code found}
   * @throws StoreFormatException if {@code found} is not one of {@code known}
   */
  public static String require(String what, String found, Collection<String> known) {
    if (found != null && known.contains(found)) {
      return found;
    }
    throw new StoreFormatException(
        what
            + " has format "
            + (found == null ? "none" : "'" + found + "'")
            + ", this Sluice reads "
            + known.stream().map(k -> "'" + k + "'").collect(Collectors.joining(", "))
            + "; nothing was changed");
  }

  /**
   * Returns the schema version {@code found} if it is one this Sluice reads: from 1 to {@code
   * newest}. An older one is migrated forward by the store; a newer one is refused, never
   * downgraded.
   *
   * @param what names the data in the message, such as {@code workflow store /x/workflows.db}
   * @param found the recorded version, as stored, or {@code null} if none is recorded
   * @param newest the newest version this Sluice reads and writes
   * @return the version
   * @throws StoreFormatException if {@code found} is not a version from 1 to {@code newest}
   */
  public static int requireVersion(String what, String found, int newest) {
    int version;
    try {
      version = Integer.parseInt(String.valueOf(found));
    } catch (NumberFormatException e) {
      version = -1;
    }
    if (version < 1 || version > newest) {
      throw new StoreFormatException(
          what
              + " has schema version '"
              + found
              + "'; this Sluice reads versions 1 to "
              + newest
              + " and never downgrades a store; nothing was changed");
    }
    return version;
  }
}
