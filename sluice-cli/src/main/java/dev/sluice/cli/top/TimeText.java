/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import dev.sluice.cli.Durations;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Times as {@code sluice top} shows them: instants as local {@code HH:mm:ss}, deadlines as whole
 * seconds left, rounded up (a countdown never reads {@code 0s} while its deadline is still ahead),
 * and the instant at which such a countdown next changes, so the view redraws exactly then.
 * Stateless and thread-safe; never blocks.
 */
final class TimeText {
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

  /** An ISO-8601 instant inside free text, as the gate writes them into event details. */
  private static final Pattern INSTANT =
      Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,9})?Z");

  private static final Duration SECOND = Duration.ofSeconds(1);

  private TimeText() {}

  /** {@code at} as local wall-clock time, {@code HH:mm:ss}. */
  static String clock(Instant at, ZoneId zone) {
    return CLOCK.format(at.atZone(zone));
  }

  /** Every ISO-8601 instant in {@code text} written as local {@code HH:mm:ss}. */
  static String localInstants(String text, ZoneId zone) {
    Matcher m = INSTANT.matcher(text);
    StringBuilder b = new StringBuilder();
    while (m.find()) {
      String local;
      try {
        local = clock(Instant.parse(m.group()), zone);
      } catch (DateTimeParseException e) {
        // Shaped like an instant but not one (a 25th hour): leave the text as it was.
        local = m.group();
      }
      m.appendReplacement(b, Matcher.quoteReplacement(local));
    }
    m.appendTail(b);
    return b.toString();
  }

  /** Whole seconds from {@code now} to {@code deadline}, rounded up; 0 once it has passed. */
  static long secondsLeft(Instant deadline, Instant now) {
    Duration left = Duration.between(now, deadline);
    if (left.isNegative() || left.isZero()) {
      return 0;
    }
    long whole = left.getSeconds();
    return left.getNano() == 0 ? whole : whole + 1;
  }

  /** The time left, in whole seconds rounded up, for people: {@code 12s}, {@code 1m05s}. */
  static String left(Instant deadline, Instant now) {
    return Durations.human(Duration.ofSeconds(secondsLeft(deadline, now)));
  }

  /**
   * When {@link #left} next reads differently: at the next whole second before the deadline, or at
   * the deadline itself; empty once it has passed.
   */
  static Optional<Instant> nextChange(Instant deadline, Instant now) {
    long left = secondsLeft(deadline, now);
    return left == 0
        ? Optional.empty()
        : Optional.of(deadline.minus(SECOND.multipliedBy(left - 1)));
  }
}
