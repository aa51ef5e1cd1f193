/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.sluice.gate.DurationText;
import dev.sluice.gate.GateSettings;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The key table: names, ranges, the gate's own forms, and a home's defaults carried over. */
class ConfigKeysTest {
  @Test
  void theDocumentedKeysInTheirOrder() {
    assertThat(ConfigKeys.ALL)
        .extracting(ConfigKey::name)
        .containsExactly(
            "default.pool",
            "default.capacity",
            "offer.ttl",
            "start.deadline",
            "untracked.lease",
            "long.hold",
            "events.kept",
            "events.max-age",
            "terminal.retention",
            "job.log-retention");
  }

  @Test
  void withoutValuesEveryKeyTakesTheHomesOwnSetting() {
    // Distinct from every documented default, so a key that lost its home's value shows.
    GateSettings home =
        GateSettings.builder()
            .defaultCapacity(7)
            .offerTtl(Duration.ofSeconds(11))
            .startDeadline(Duration.ofSeconds(12))
            .untrackedLease(Duration.ofSeconds(13))
            .longHold(Duration.ofMinutes(14))
            .eventsKept(1500)
            .eventsMaxAge(Duration.ofHours(16))
            .terminalRetention(Duration.ofMinutes(17))
            .build();

    GateConfig c = ConfigKeys.overlay(home, Map.of());

    assertThat(c.settings()).isEqualTo(home);
    assertThat(c.defaultPool()).isEqualTo("default");
  }

  @Test
  void valuesSetTheirKeysAndNothingElse() {
    GateSettings home = GateSettings.defaults();

    GateConfig c =
        ConfigKeys.overlay(
            home, Map.of("offer.ttl", "5m", "default.pool", "build", "events.kept", "500"));

    assertThat(c.settings().offerTtl()).isEqualTo(Duration.ofMinutes(5));
    assertThat(c.settings().eventsKept()).isEqualTo(500);
    assertThat(c.defaultPool()).isEqualTo("build");
    assertThat(c.settings().startDeadline()).isEqualTo(home.startDeadline());
    assertThat(c.settings().defaultCapacity()).isEqualTo(home.defaultCapacity());
  }

  @Test
  void aValueIsCheckedAtTheEdgesOfItsRange() {
    ConfigKey<?> ttl = ConfigKeys.require("offer.ttl");
    assertThat(ttl.canonical("1s")).isEqualTo("1s");
    assertThat(ttl.canonical("1000ms")).isEqualTo("1s");
    assertThat(ttl.canonical("PT24H")).isEqualTo("1d");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ttl.canonical("999ms"))
        .withMessage(
            "offer.ttl = '999ms': not a duration from 1s to 1d (such as 500ms, 30s, 2m, 1h, 7d,"
                + " plain seconds 30, or ISO-8601 PT30S)");
    assertThatIllegalArgumentException().isThrownBy(() -> ttl.canonical("86401s"));

    ConfigKey<?> kept = ConfigKeys.require("events.kept");
    assertThat(kept.canonical(" 100 ")).isEqualTo("100");
    assertThat(kept.canonical("1000000")).isEqualTo("1000000");
    for (String bad : new String[] {"99", "1000001", "+500", "5e2", "500.0", "99999999999"}) {
      assertThatIllegalArgumentException()
          .as(bad)
          .isThrownBy(() -> kept.canonical(bad))
          .withMessageContaining("events.kept = '" + bad + "'")
          .withMessageContaining("a whole number from 100 to 1000000");
    }
  }

  @Test
  void anUnknownKeyIsRefusedWithTheNearestKeyAndEveryKey() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ConfigKeys.require("Offer_TTL"))
        .withMessageStartingWith("unknown key 'Offer_TTL' (did you mean offer.ttl?); the keys are")
        .withMessageContaining("default.pool, default.capacity, offer.ttl, start.deadline");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ConfigKeys.require("colour"))
        .withMessageStartingWith("unknown key 'colour'; the keys are default.pool");
  }

  @Test
  void durationsPrintExactlyInTheLargestUnitThatDividesThem() {
    assertThat(DurationText.format(Duration.ofSeconds(90))).isEqualTo("90s");
    assertThat(DurationText.format(Duration.ofMinutes(90))).isEqualTo("90m");
    assertThat(DurationText.format(Duration.ofHours(48))).isEqualTo("2d");
    assertThat(DurationText.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
    assertThat(DurationText.format(Duration.ofNanos(1500))).isEqualTo("PT0.0000015S");
    for (Duration d :
        new Duration[] {
          Duration.ofSeconds(90), Duration.ofMillis(1500), Duration.ofNanos(1500), DurationText.MAX
        }) {
      assertThat(DurationText.parse(DurationText.format(d))).isEqualTo(d);
    }
  }
}
