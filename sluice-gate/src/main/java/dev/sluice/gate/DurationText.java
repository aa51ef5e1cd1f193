/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The gate's duration syntax, the same on the command line and in the configuration file: {@code
 * 500ms}, {@code 30s}, {@code 2m}, {@code 1h}, {@code 7d}, plain seconds ({@code 30}, {@code 1.5})
 * and ISO-8601 ({@code PT30S}), not negative and at most 365 days. Stateless and thread-safe; never
 * blocks.
 */
public final class DurationText {
  /** What the messages say is allowed. */
  public static final String ALLOWED =
      "a duration such as 500ms, 30s, 2m, 1h, plain seconds (30) or ISO-8601 (PT30S),"
          + " not negative and at most 365 days";

  /** The longest duration the syntax accepts. */
  public static final Duration MAX = Duration.ofDays(365);

  private static final Pattern SIMPLE =
      Pattern.compile("(\\d{1,12}(?:\\.\\d{1,9})?)(ms|s|m|h|d)?", Pattern.CASE_INSENSITIVE);

  /** Units from the largest down, for {@link #format}. */
  private static final long[] UNIT_NANOS = {
    86_400_000_000_000L, 3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L
  };

  private static final String[] UNIT_NAMES = {"d", "h", "m", "s", "ms"};

  private DurationText() {}

  /**
   * Parses a duration.
   *
   * @param text what the user typed
   * @return the duration, not negative, at most {@link #MAX}
   * @throws IllegalArgumentException naming the value and what is allowed
   */
  public static Duration parse(String text) {
    String t = text == null ? "" : text.strip();
    Duration d;
    try {
      d = t.toUpperCase(Locale.ROOT).startsWith("P") ? Duration.parse(t) : simple(t);
    } catch (DateTimeParseException | ArithmeticException e) {
      d = null;
    }
    if (d == null || d.isNegative() || d.compareTo(MAX) > 0) {
      throw new IllegalArgumentException("'" + text + "' is not " + ALLOWED);
    }
    return d;
  }

  private static Duration simple(String t) {
    Matcher m = SIMPLE.matcher(t);
    if (!m.matches()) {
      return null;
    }
    String unit = m.group(2) == null ? "s" : m.group(2).toLowerCase(Locale.ROOT);
    long nanosPerUnit = UNIT_NANOS[java.util.Arrays.asList(UNIT_NAMES).indexOf(unit)];
    // BigDecimal keeps "1.5h" exact; anything beyond 365 days is refused by the caller.
    BigDecimal nanos = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(nanosPerUnit));
    if (nanos.compareTo(BigDecimal.valueOf(MAX.toNanos())) > 0) {
      return null;
    }
    return Duration.ofNanos(nanos.longValue());
  }

  /**
   * Prints a duration exactly, in the largest unit that divides it ({@code 90s}, {@code 5m}, {@code
   * 36h}, {@code 7d}, {@code 1500ms}), so that {@link #parse} reads back the same duration; what no
   * unit divides is printed in ISO-8601.
   *
   * @param d a duration, not negative, at most {@link #MAX}
   */
  public static String format(Duration d) {
    if (d.isZero()) {
      return "0s";
    }
    if (!d.isNegative() && d.compareTo(MAX) <= 0) {
      long nanos = d.toNanos();
      for (int i = 0; i < UNIT_NANOS.length; i++) {
        if (nanos % UNIT_NANOS[i] == 0) {
          return nanos / UNIT_NANOS[i] + UNIT_NAMES[i];
        }
      }
    }
    return d.toString();
  }
}
