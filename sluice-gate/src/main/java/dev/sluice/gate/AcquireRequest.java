/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What an agent asks the gate for. Validated on construction, so a bad value is refused before
 * anything is queued or written.
 *
 * @param agentId who asks: 1 to 128 characters, no control characters
 * @param opKey the agent's key for this operation: 1 to 128 characters, no control characters
 * @param pool the pool: 1 to 64 of {@code A-Z a-z 0-9 . _ -}, starting with a letter or digit
 * @param weight capacity units: 1 to {@value #MAX_WEIGHT}
 * @param label shown to people: at most 200 characters, no control characters
 * @param reason why: at most 500 characters, no control characters
 */
public record AcquireRequest(
    String agentId, String opKey, String pool, int weight, String label, String reason) {
  /** The largest weight (and capacity) the gate accepts. */
  public static final int MAX_WEIGHT = 1_000_000;

  /** The pool a request without one uses; the only pool made by its first request. */
  public static final String DEFAULT_POOL = "default";

  /** Not starting with '-' or '.': such a word is a mistyped option, or a hidden file's name. */
  private static final Pattern POOL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  /** Validates every field. */
  public AcquireRequest {
    agentId = text("agentId", agentId, 1, 128);
    opKey = text("opKey", opKey, 1, 128);
    pool = poolName(pool);
    if (weight < 1 || weight > MAX_WEIGHT) {
      throw new IllegalArgumentException(
          "weight must be between 1 and " + MAX_WEIGHT + ", was " + weight);
    }
    label = text("label", label == null ? "" : label, 0, 200);
    reason = text("reason", reason == null ? "" : reason, 0, 500);
  }

  /**
   * Checks a pool name.
   *
   * @param pool the name
   * @return the name
   * @throws IllegalArgumentException if it is not 1 to 64 of {@code A-Z a-z 0-9 . _ -}, starting
   *     with a letter or digit
   */
  public static String poolName(String pool) {
    Objects.requireNonNull(pool, "pool");
    if (!POOL.matcher(pool).matches()) {
      throw new IllegalArgumentException(
          "pool must be 1 to 64 of A-Z a-z 0-9 . _ -, starting with a letter or digit, was '"
              + pool
              + "'");
    }
    return pool;
  }

  /**
   * Checks a free-text field.
   *
   * @param field the field's name, for the message
   * @param value the value
   * @param min the least length
   * @param max the greatest length
   * @return the value
   * @throws IllegalArgumentException if it is too short, too long or has a control character
   */
  public static String text(String field, String value, int min, int max) {
    Objects.requireNonNull(value, field);
    if (value.length() < min || value.length() > max) {
      throw new IllegalArgumentException(
          field + " must be " + min + " to " + max + " characters, was " + value.length());
    }
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        throw new IllegalArgumentException(
            field + " must not contain control characters, was '" + value.strip() + "'");
      }
    }
    return value;
  }
}
