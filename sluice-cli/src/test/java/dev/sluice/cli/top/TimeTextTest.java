/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

/** Local clock times and whole-second countdowns. */
class TimeTextTest {
  static final Instant T = Instant.parse("2026-03-01T23:59:59.900Z");
  static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  @Test
  void clockTimesAreLocalWithoutMilliseconds() {
    assertThat(TimeText.clock(T, BERLIN)).isEqualTo("00:59:59");
    assertThat(
            TimeText.localInstants(
                "until 2026-03-01T23:59:59.900Z, then 2026-03-02T00:00:01Z", BERLIN))
        .isEqualTo("until 00:59:59, then 01:00:01");
    assertThat(TimeText.localInstants("pid 42, pgid 42", BERLIN)).isEqualTo("pid 42, pgid 42");
  }

  @Test
  void countdownsRoundUpAndChangeAtTheNextWholeSecond() {
    Instant deadline = T.plusMillis(12_300);
    assertThat(TimeText.left(deadline, T)).isEqualTo("13s");
    assertThat(TimeText.nextChange(deadline, T)).contains(T.plusMillis(300));
    assertThat(TimeText.left(deadline, T.plusMillis(300))).isEqualTo("12s");
    assertThat(TimeText.nextChange(deadline, T.plusMillis(300))).contains(T.plusMillis(1300));
    assertThat(TimeText.left(deadline, deadline.minusMillis(1))).isEqualTo("1s");
    assertThat(TimeText.nextChange(deadline, deadline.minusMillis(1))).contains(deadline);
    assertThat(TimeText.secondsLeft(deadline, deadline)).isZero();
    assertThat(TimeText.nextChange(deadline, deadline)).isEmpty();
    assertThat(TimeText.left(T.plusSeconds(65), T)).isEqualTo("1m05s");
  }
}
