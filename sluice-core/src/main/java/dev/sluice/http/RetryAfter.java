/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads an HTTP {@code Retry-After} value: a number of seconds, or an HTTP date in any of its three
 * forms (IMF-fixdate {@code Sun, 06 Nov 1994 08:49:37 GMT}, obsolete RFC 850 {@code Sunday,
 * 06-Nov-94 08:49:37 GMT}, and asctime {@code Sun Nov 6 08:49:37 1994}).
 *
 * <p>The IMF-fixdate's day may also have one digit ({@code Sun, 6 Nov 1994 08:49:37 GMT}): RFC 9110
 * asks for two, but Java's {@code DateTimeFormatter.RFC_1123_DATE_TIME}, which many servers use,
 * writes one for days 1 to 9, and such a header means the same moment.
 *
 * <p>A value that is not one of those exactly (a negative or fractional number, a weekday that does
 * not match the date, a day the calendar lacks) is ignored: the result is empty. A date in the past
 * is a wait of zero. A leap second ({@code :60}) is accepted as the next second. Waits are capped
 * at 3650 days, like every other duration of the limiter.
 *
 * <p>Stateless and thread-safe; nothing blocks.
 */
public final class RetryAfter {
  private static final Duration LONGEST = Duration.ofDays(3650);
  private static final Pattern SECONDS = Pattern.compile("[0-9]+");
  private static final String MONTHS = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
  private static final String TIME = "([0-9]{2}):([0-9]{2}):([0-9]{2})";
  private static final Pattern IMF =
      Pattern.compile(
          "(Mon|Tue|Wed|Thu|Fri|Sat|Sun), ([0-9]{1,2}) " + MONTHS + " ([0-9]{4}) " + TIME + " GMT");
  private static final Pattern RFC850 =
      Pattern.compile(
          "(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), ([0-9]{2})-"
              + MONTHS
              + "-([0-9]{2}) "
              + TIME
              + " GMT");
  private static final Pattern ASCTIME =
      Pattern.compile(
          "(Mon|Tue|Wed|Thu|Fri|Sat|Sun) " + MONTHS + " ([ 0-9][0-9]) " + TIME + " ([0-9]{4})");
  private static final List<String> MONTH_NAMES =
      List.of("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec");

  private RetryAfter() {}

  /**
   * Reads the {@code Retry-After} header of a response, if it has a valid one.
   *
   * @param response the response
   * @param now the current time, for HTTP dates
   * @return how long the server asked to wait, or empty
   */
  public static Optional<Duration> of(HttpResponse<?> response, Instant now) {
    Objects.requireNonNull(response, "response");
    Objects.requireNonNull(now, "now");
    return of(response.headers(), () -> now);
  }

  /** Like {@link #of(HttpResponse, Instant)}, reading the time only for an HTTP date. */
  static Optional<Duration> of(HttpHeaders headers, Supplier<Instant> now) {
    return headers.firstValue("Retry-After").flatMap(v -> parse(v, now));
  }

  /**
   * Reads one {@code Retry-After} value.
   *
   * @param value the header's value; surrounding spaces are ignored
   * @param now the current time, for HTTP dates
   * @return how long to wait, zero for a past date, or empty for a malformed value
   */
  public static Optional<Duration> parse(String value, Instant now) {
    Objects.requireNonNull(now, "now");
    return parse(value, () -> now);
  }

  /**
   * Like {@link #parse(String, Instant)}, reading the time only for a well-formed HTTP date: for a
   * caller whose clock costs a store read.
   */
  static Optional<Duration> parse(String value, Supplier<Instant> now) {
    if (value == null) {
      return Optional.empty();
    }
    String v = value.strip();
    if (SECONDS.matcher(v).matches()) {
      return Optional.of(seconds(v));
    }
    return date(v, now);
  }

  private static Duration seconds(String digits) {
    // More than 12 digits is far beyond the cap; the cap also keeps the sum from overflowing.
    if (digits.length() > 12) {
      return LONGEST;
    }
    Duration d = Duration.ofSeconds(Long.parseLong(digits));
    return d.compareTo(LONGEST) > 0 ? LONGEST : d;
  }

  private static Duration wait(Instant now, Instant at) {
    if (!at.isAfter(now)) {
      return Duration.ZERO;
    }
    Duration d = Duration.between(now, at);
    return d.compareTo(LONGEST) > 0 ? LONGEST : d;
  }

  /** The wait until the HTTP date {@code v} names, or empty if {@code v} is not one. */
  private static Optional<Duration> date(String v, Supplier<Instant> clock) {
    Matcher m = IMF.matcher(v);
    if (m.matches()) {
      return instant(m.group(1), m.group(4), m.group(3), m.group(2), m, 5)
          .map(at -> wait(now(clock), at));
    }
    m = RFC850.matcher(v);
    if (m.matches()) {
      Instant now = now(clock);
      String year = String.valueOf(fullYear(Integer.parseInt(m.group(4)), now));
      return instant(m.group(1).substring(0, 3), year, m.group(3), m.group(2), m, 5)
          .map(at -> wait(now, at));
    }
    m = ASCTIME.matcher(v);
    if (m.matches()) {
      return instant(m.group(1), m.group(7), m.group(2), m.group(3).strip(), m, 4)
          .map(at -> wait(now(clock), at));
    }
    return Optional.empty();
  }

  private static Instant now(Supplier<Instant> clock) {
    return Objects.requireNonNull(clock.get(), "the clock answered no time");
  }

  /**
   * The year of a two-digit RFC 850 year: the one nearest to now's that is at most 50 years ahead,
   * as RFC 9110 asks.
   */
  private static int fullYear(int twoDigits, Instant now) {
    int current = now.atOffset(ZoneOffset.UTC).getYear();
    int year = current - Math.floorMod(current, 100) + twoDigits;
    if (year > current + 50) {
      year -= 100;
    } else if (year + 100 <= current + 50) {
      year += 100;
    }
    return year;
  }

  private static Optional<Instant> instant(
      String weekday, String year, String month, String day, Matcher m, int timeGroup) {
    int hour = Integer.parseInt(m.group(timeGroup));
    int minute = Integer.parseInt(m.group(timeGroup + 1));
    int second = Integer.parseInt(m.group(timeGroup + 2));
    if (hour > 23 || minute > 59 || second > 60) {
      return Optional.empty();
    }
    LocalDate date;
    try {
      date =
          LocalDate.of(
              Integer.parseInt(year), MONTH_NAMES.indexOf(month) + 1, Integer.parseInt(day));
    } catch (DateTimeException e) {
      return Optional.empty();
    }
    if (!date.getDayOfWeek().equals(weekday(weekday))) {
      return Optional.empty();
    }
    // A leap second is the instant after :59.
    return Optional.of(
        date.atStartOfDay()
            .toInstant(ZoneOffset.UTC)
            .plusSeconds(hour * 3600L + minute * 60L + second));
  }

  private static DayOfWeek weekday(String abbreviation) {
    return switch (abbreviation) {
      case "Mon" -> DayOfWeek.MONDAY;
      case "Tue" -> DayOfWeek.TUESDAY;
      case "Wed" -> DayOfWeek.WEDNESDAY;
      case "Thu" -> DayOfWeek.THURSDAY;
      case "Fri" -> DayOfWeek.FRIDAY;
      case "Sat" -> DayOfWeek.SATURDAY;
      default -> DayOfWeek.SUNDAY;
    };
  }
}
