/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {
  @Test
  void acceptsTheDocumentedForms() {
    assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parse("30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(Durations.parse("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(Durations.parse("1.5h")).isEqualTo(Duration.ofMinutes(90));
    assertThat(Durations.parse("30")).isEqualTo(Duration.ofSeconds(30));
    assertThat(Durations.parse("0.25")).isEqualTo(Duration.ofMillis(250));
    assertThat(Durations.parse("PT30S")).isEqualTo(Duration.ofSeconds(30));
    assertThat(Durations.parse("pt1m")).isEqualTo(Duration.ofMinutes(1));
    assertThat(Durations.parse("0")).isEqualTo(Duration.ZERO);
  }

  @Test
  void refusesOthersNamingValueAndForms() {
    for (String bad : new String[] {"", "abc", "5x", "-1s", "PT-1S", "1e3", "400d", "s"}) {
      assertThatThrownBy(() -> Durations.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'" + bad + "'")
          .hasMessageContaining("500ms, 30s, 2m, 1h");
    }
  }

  @Test
  void printsForPeople() {
    assertThat(Durations.human(Duration.ofMillis(850))).isEqualTo("850ms");
    assertThat(Durations.human(Duration.ofMillis(3500))).isEqualTo("3.5s");
    assertThat(Durations.human(Duration.ofSeconds(42))).isEqualTo("42s");
    assertThat(Durations.human(Duration.ofSeconds(187))).isEqualTo("3m07s");
    assertThat(Durations.human(Duration.ofMinutes(125))).isEqualTo("2h05m");
  }
}
