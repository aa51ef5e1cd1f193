/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Parsing of {@code Retry-After}: seconds and the three HTTP-date forms. */
class RetryAfterTest {
  /** Sun, 06 Nov 1994 08:49:37 GMT, the example date of the HTTP specifications. */
  private static final Instant EXAMPLE = Instant.parse("1994-11-06T08:49:37Z");

  private static final Instant BEFORE = EXAMPLE.minusSeconds(90);

  @Test
  void secondsAreReadAsTheyAre() {
    assertThat(RetryAfter.parse("120", EXAMPLE)).hasValue(Duration.ofSeconds(120));
    assertThat(RetryAfter.parse("0", EXAMPLE)).hasValue(Duration.ZERO);
    assertThat(RetryAfter.parse(" 7 ", EXAMPLE)).hasValue(Duration.ofSeconds(7));
  }

  @Test
  void negativeOrSignedSecondsAreIgnored() {
    assertThat(RetryAfter.parse("-1", EXAMPLE)).isEmpty();
    assertThat(RetryAfter.parse("-120", EXAMPLE)).isEmpty();
    assertThat(RetryAfter.parse("+120", EXAMPLE)).isEmpty();
  }

  @Test
  void hugeSecondsAreCappedAtTenYears() {
    assertThat(RetryAfter.parse("99999999999999999999999", EXAMPLE))
        .hasValue(Duration.ofDays(3650));
    assertThat(RetryAfter.parse("999999999999", EXAMPLE)).hasValue(Duration.ofDays(3650));
    assertThat(RetryAfter.parse(String.valueOf(Long.MAX_VALUE), EXAMPLE))
        .hasValue(Duration.ofDays(3650));
    assertThat(RetryAfter.parse("315360000", EXAMPLE)).hasValue(Duration.ofDays(3650));
    assertThat(RetryAfter.parse("315359999", EXAMPLE)).hasValue(Duration.ofSeconds(315359999));
  }

  @Test
  void aFarDateIsCappedAtTenYears() {
    assertThat(RetryAfter.parse("Fri, 31 Dec 9999 23:59:59 GMT", EXAMPLE))
        .hasValue(Duration.ofDays(3650));
  }

  @Test
  void theThreeDateFormsGiveTheSameInstant() {
    Optional<Duration> wait = Optional.of(Duration.ofSeconds(90));
    assertThat(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", BEFORE)).isEqualTo(wait);
    assertThat(RetryAfter.parse("Sunday, 06-Nov-94 08:49:37 GMT", BEFORE)).isEqualTo(wait);
    assertThat(RetryAfter.parse("Sun Nov  6 08:49:37 1994", BEFORE)).isEqualTo(wait);
  }

  @Test
  void anImfDateMayHaveADayOfOneDigitAsJavaWritesIt() {
    Optional<Duration> wait = Optional.of(Duration.ofSeconds(90));
    assertThat(RetryAfter.parse("Sun, 6 Nov 1994 08:49:37 GMT", BEFORE)).isEqualTo(wait);
    assertThat(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", BEFORE)).isEqualTo(wait);
  }

  /** Every day of a month, as {@code DateTimeFormatter.RFC_1123_DATE_TIME} writes it. */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 5, 9, 10, 11, 19, 28, 31})
  void whatJavaWritesForAnyDayIsReadBack(int day) {
    Instant at = Instant.parse("2026-12-01T23:59:59Z").plus(Duration.ofDays(day - 1));
    String header = DateTimeFormatter.RFC_1123_DATE_TIME.format(at.atOffset(ZoneOffset.UTC));
    assertThat(RetryAfter.parse(header, at.minusSeconds(42)))
        .as(header)
        .hasValue(Duration.ofSeconds(42));
  }

  @Test
  void aPastDateIsAWaitOfZeroInEveryForm() {
    Instant later = EXAMPLE.plusSeconds(3600);
    for (String date :
        new String[] {
          "Sun, 06 Nov 1994 08:49:37 GMT",
          "Sun, 6 Nov 1994 08:49:37 GMT",
          "Sunday, 06-Nov-94 08:49:37 GMT",
          "Sun Nov  6 08:49:37 1994"
        }) {
      assertThat(RetryAfter.parse(date, later)).as(date).hasValue(Duration.ZERO);
      assertThat(RetryAfter.parse(date, EXAMPLE)).as(date).hasValue(Duration.ZERO);
    }
  }

  @Test
  void aDateIsMeasuredFromTheGivenTimeNotTheSystemClock() {
    Instant longAgo = EXAMPLE.minusSeconds(86_400);
    assertThat(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", longAgo))
        .hasValue(Duration.ofDays(1));
  }

  @Test
  void theClockIsReadOnlyForADate() {
    Supplier<Instant> unread =
        () -> {
          throw new AssertionError("the clock was read");
        };
    assertThat(RetryAfter.parse("120", unread)).hasValue(Duration.ofSeconds(120));
    assertThat(RetryAfter.parse("soon", unread)).isEmpty();
    assertThat(RetryAfter.parse("Sun, 31 Nov 1994 08:49:37 GMT", unread)).isEmpty();
    assertThat(RetryAfter.parse(null, unread)).isEmpty();
    assertThat(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", () -> BEFORE))
        .hasValue(Duration.ofSeconds(90));
  }

  @Test
  void aTwoDigitYearIsTheNearestNotMoreThanFiftyYearsAhead() {
    Instant in2099 = Instant.parse("2099-06-01T00:00:00Z");
    // 2001 is long past; 2101 is less than 50 years ahead, so it is 2101.
    assertThat(RetryAfter.parse("Saturday, 01-Jan-01 00:00:00 GMT", in2099))
        .hasValue(Duration.between(in2099, Instant.parse("2101-01-01T00:00:00Z")));
    Instant in2060 = Instant.parse("2060-01-01T00:00:00Z");
    // 01-Jan-11 would be 2111, 51 years ahead, so it is 2011, in the past.
    assertThat(RetryAfter.parse("Saturday, 01-Jan-11 00:00:00 GMT", in2060))
        .hasValue(Duration.ZERO);
  }

  @Test
  void aLeapSecondIsTheNextSecond() {
    Instant before = Instant.parse("2016-12-31T23:59:00Z");
    assertThat(RetryAfter.parse("Sat, 31 Dec 2016 23:59:60 GMT", before))
        .hasValue(Duration.ofSeconds(60));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "soon",
        "-5",
        "1.5",
        "+3",
        "1e3",
        "٣", // a digit, but not an ASCII one
        "Mon, 06 Nov 1994 08:49:37 GMT", // the 6th was a Sunday
        "Sun, 31 Nov 1994 08:49:37 GMT", // November has 30 days
        "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 06 Nov 1994 08:49:61 GMT",
        "Sun, 06 Nov 1994 08:49:37 UTC",
        "Mon, 6 Nov 1994 08:49:37 GMT", // one digit, but the wrong weekday
        "Sun,  6 Nov 1994 08:49:37 GMT", // a day is one or two digits, not a padded one
        "Sun, 006 Nov 1994 08:49:37 GMT",
        "Sun, 6 Nov 94 08:49:37 GMT",
        "Sunday, 6-Nov-94 08:49:37 GMT", // RFC 850 days have two digits
        "Sun Nov 6 08:49:37 1994", // asctime pads a day of one digit with a space
        "Sun, 06 Nov 1994 8:49:37 GMT",
        "sun, 06 nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 GMT extra",
        "Sun, 06-Nov-94 08:49:37 GMT", // RFC 850 needs the full weekday
        "Sun Nov 06 08:49:37 94",
        "Sun Feb 29 08:49:37 1994" // not a leap year
      })
  void aMalformedValueIsIgnored(String value) {
    assertThat(RetryAfter.parse(value, EXAMPLE)).isEmpty();
  }

  @Test
  void noValueIsIgnored() {
    assertThat(RetryAfter.parse(null, EXAMPLE)).isEmpty();
  }
}
