/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.time.Instant;

/**
 * One change of a configuration key, kept in the gate's store as its history (like {@link
 * CapacityChange}), never pruned.
 *
 * @param at when, in store time
 * @param key the key, for example {@code offer.ttl}
 * @param via how: {@code config set}, {@code config unset}, or an edit of the file by hand that the
 *     next gate command found
 * @param before the value before
 * @param after the value after
 * @param actor who changed it; empty for an edit by hand (the file does not say who made it)
 * @param reason why, as given by the actor, possibly empty
 */
public record ConfigChange(
    Instant at,
    String key,
    Via via,
    ConfigValue before,
    ConfigValue after,
    String actor,
    String reason) {
  /** How a key was changed. */
  public enum Via {
    /** {@code sluice config set}. */
    SET,
    /** {@code sluice config unset}: back to the default. */
    UNSET,
    /** The file was edited by hand; the first gate command after the edit recorded it. */
    FILE_EDIT
  }

  /** For people: {@code offer.ttl 30s (default) -> 5m}. */
  public String describe() {
    return key + " " + before.describe() + " -> " + after.describe();
  }

  /** Whether the value or its source differs. */
  public boolean changed() {
    return !before.equals(after);
  }
}
