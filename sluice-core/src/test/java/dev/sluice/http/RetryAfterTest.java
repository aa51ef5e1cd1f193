/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
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
  void hugeSecondsAreCappedAtTenYears() {
    assertThat(RetryAfter.parse("99999999999999999999999", EXAMPLE))
        .hasValue(Duration.ofDays(3650));
    assertThat(RetryAfter.parse("999999999999", EXAMPLE)).hasValue(Duration.ofDays(3650));
  }

  @Test
  void theThreeDateFormsGiveTheSameInstant() {
    Optional<Duration> wait = Optional.of(Duration.ofSeconds(90));
    assertThat(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", BEFORE)).isEqualTo(wait);
    assertThat(RetryAfter.parse("Sunday, 06-Nov-94 08:49:37 GMT", BEFORE)).isEqualTo(wait);
    assertThat(RetryAfter.parse("Sun Nov  6 08:49:37 1994", BEFORE)).isEqualTo(wait);
  }

  @Test
  void aPastDateIsAWaitOfZero() {
    Instant later = EXAMPLE.plusSeconds(3600);
    assertThat(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", later)).hasValue(Duration.ZERO);
    assertThat(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", EXAMPLE)).hasValue(Duration.ZERO);
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
        "Sun, 6 Nov 1994 08:49:37 GMT",
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
