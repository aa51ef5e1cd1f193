/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and prints the durations the command accepts: {@code 500ms}, {@code 30s}, {@code 2m},
 * {@code 1h}, plain seconds ({@code 30}, {@code 1.5}) and ISO-8601 ({@code PT30S}). Stateless and
 * thread-safe; never blocks.
 */
public final class Durations {
  /** What the messages say is allowed. */
  public static final String ALLOWED =
      "a duration such as 500ms, 30s, 2m, 1h, plain seconds (30) or ISO-8601 (PT30S),"
          + " not negative and at most 365 days";

  private static final Pattern SIMPLE =
      Pattern.compile("(\\d{1,12}(?:\\.\\d{1,9})?)(ms|s|m|h|d)?", Pattern.CASE_INSENSITIVE);
  private static final Duration MAX = Duration.ofDays(365);

  private Durations() {}

  /**
   * Parses a duration.
   *
   * @param text what the user typed
   * @return the duration, not negative
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
    long nanosPerUnit =
        switch (unit) {
          case "ms" -> 1_000_000L;
          case "s" -> 1_000_000_000L;
          case "m" -> 60_000_000_000L;
          case "h" -> 3_600_000_000_000L;
          default -> 86_400_000_000_000L;
        };
    // BigDecimal keeps "1.5h" exact; anything beyond 365 days is refused by the caller.
    BigDecimal nanos = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(nanosPerUnit));
    if (nanos.compareTo(BigDecimal.valueOf(MAX.toNanos())) > 0) {
      return null;
    }
    return Duration.ofNanos(nanos.longValue());
  }

  /** Prints a duration for people: {@code 850ms}, {@code 42s}, {@code 3m07s}, {@code 2h05m}. */
  public static String human(Duration d) {
    if (d.isNegative()) {
      return "-" + human(d.negated());
    }
    long s = d.getSeconds();
    if (s < 1) {
      return d.toMillis() + "ms";
    }
    if (s < 10 && d.toMillis() % 1000 != 0) {
      return String.format("%d.%ds", s, d.toMillis() % 1000 / 100);
    }
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return String.format("%dm%02ds", s / 60, s % 60);
    }
    if (s < 86_400) {
      return String.format("%dh%02dm", s / 3600, (s % 3600) / 60);
    }
    return String.format("%dd%02dh", s / 86_400, (s % 86_400) / 3600);
  }
}
