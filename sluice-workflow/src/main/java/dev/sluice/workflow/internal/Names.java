/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.workflow.Workflow;

/** Checks of ids and keys, naming the field and the value. */
final class Names {
  /** Keys the runtime records for {@code now()}, {@code randomUuid()} and markers start with it. */
  static final String RESERVED_PREFIX = "$";

  private Names() {}

  static String check(String field, String value) {
    if (value == null) {
      throw new NullPointerException(field + " must not be null");
    }
    boolean control = value.chars().anyMatch(Character::isISOControl);
    if (value.isBlank() || value.length() > Workflow.MAX_NAME_LENGTH || control) {
      throw new IllegalArgumentException(
          field
              + " must be 1 to "
              + Workflow.MAX_NAME_LENGTH
              + " characters, not blank, without control characters, was '"
              + (value.length() > 64 ? value.substring(0, 64) + "…" : value)
              + "' ("
              + value.length()
              + " characters)");
    }
    return value;
  }

  static String stepKey(String key) {
    check("step key", key);
    if (key.startsWith(RESERVED_PREFIX)) {
      throw new IllegalArgumentException(
          "step key must not start with '" + RESERVED_PREFIX + "' (reserved), was '" + key + "'");
    }
    return key;
  }
}
