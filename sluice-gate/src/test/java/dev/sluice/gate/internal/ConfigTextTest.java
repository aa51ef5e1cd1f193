/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.gate.ConfigProblem;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading, checking and changing the configuration file's text. */
class ConfigTextTest {
  private static final Path FILE = Path.of("/home/u/.local/state/sluice/config.properties");

  @Test
  void readsKeysCommentsAndBlankLinesIntoTheGatesOwnForms() {
    ConfigText t =
        ConfigText.parse(
            "# my gate\r\n"
                + "\n"
                + "  offer.ttl =  PT5M   # five minutes\n"
                + "default.capacity=3\n"
                + "default.pool = build\n"
                + "events.max-age = 1.5h");

    assertThat(t.problems()).isEmpty();
    assertThat(t.values())
        .containsExactly(
            Map.entry("offer.ttl", "5m"),
            Map.entry("default.capacity", "3"),
            Map.entry("default.pool", "build"),
            Map.entry("events.max-age", "90m"));
    assertThat(t.lineOf("offer.ttl")).isEqualTo(3);
    assertThat(t.lineOf("start.deadline")).isZero();
    assertThat(t.written("offer.ttl")).contains("PT5M");
  }

  @Test
  void anUnknownKeyIsAProblemNamingTheLineTheNearestKeyAndEveryKey() {
    ConfigText t = ConfigText.parse("offer.ttl = 1m\nofer.ttl = 5m\n");

    assertThat(t.problems()).hasSize(1);
    ConfigProblem p = t.problems().get(0);
    assertThat(p.describe(FILE))
        .startsWith(FILE + " line 2: ofer.ttl = '5m': unknown key (did you mean offer.ttl?)")
        .contains("the keys are default.pool, default.capacity, offer.ttl");
    assertThat(t.values()).containsOnlyKeys("offer.ttl");
  }

  @Test
  void aValueOutsideItsKeysRangeIsAProblemNamingKeyValueAndWhatIsAllowed() {
    ConfigText t =
        ConfigText.parse(
            "offer.ttl = 0s\n"
                + "events.kept = lots\n"
                + "default.capacity = 1000001\n"
                + "default.pool = -x\n"
                + "start.deadline = 2d\n"
                + "untracked.lease =\n");

    assertThat(t.problems())
        .extracting(p -> p.describe(FILE))
        .containsExactly(
            FILE
                + " line 1: offer.ttl = '0s': not a duration from 1s to 1d (such as 500ms, 30s,"
                + " 2m, 1h, 7d, plain seconds 30, or ISO-8601 PT30S)",
            FILE + " line 2: events.kept = 'lots': not a whole number from 100 to 1000000",
            FILE + " line 3: default.capacity = '1000001': not a whole number from 1 to 1000000",
            FILE
                + " line 4: default.pool = '-x': not the name of a pool set up with sluice pool"
                + " set, or default (1 to 64 of A-Z a-z 0-9 . _ -, starting with a letter or"
                + " digit)",
            FILE
                + " line 5: start.deadline = '2d': not a duration from 1s to 1d (such as 500ms,"
                + " 30s, 2m, 1h, 7d, plain seconds 30, or ISO-8601 PT30S)",
            FILE
                + " line 6: untracked.lease = '': not a duration from 1s to 1d (such as 500ms,"
                + " 30s, 2m, 1h, 7d, plain seconds 30, or ISO-8601 PT30S)");
    assertThat(t.values()).isEmpty();
  }

  @Test
  void aKeyGivenTwiceOrALineWithoutKeyAndValueIsAProblem() {
    ConfigText t = ConfigText.parse("offer.ttl = 1m\noffer.ttl = 2m\noffer.ttl 3m\n= 4m\n");

    assertThat(t.problems())
        .extracting(p -> p.describe(FILE))
        .containsExactly(
            FILE + " line 2: offer.ttl = '2m': given again (first on line 1); give each key once",
            FILE + " line 3: 'offer.ttl 3m': not a 'key = value' line (# starts a comment)",
            FILE + " line 4: '= 4m': no key before '='");
    assertThat(t.values()).containsExactly(Map.entry("offer.ttl", "1m"));
  }

  @Test
  void settingAKeyReplacesItsLineAndKeepsEveryOtherLine() {
    ConfigText t = ConfigText.parse("# mine\noffer.ttl = 1m  # short\n\nlong.hold = 2h\n");

    assertThat(t.with("offer.ttl", "5m").render())
        .isEqualTo("# mine\noffer.ttl = 5m\n\nlong.hold = 2h\n");
    assertThat(t.with("events.kept", "500").render())
        .isEqualTo("# mine\noffer.ttl = 1m  # short\n\nlong.hold = 2h\nevents.kept = 500\n");
    assertThat(t.without("offer.ttl").render()).isEqualTo("# mine\n\nlong.hold = 2h\n");
  }

  @Test
  void settingAKeyGivenTwiceKeepsOneLineAndUnsetRemovesAnUnknownKeysLine() {
    ConfigText t = ConfigText.parse("offer.ttl = 1m\nofer.ttl = 5m\noffer.ttl = 2m\n");

    ConfigText set = t.with("offer.ttl", "3m");
    assertThat(set.render()).isEqualTo("offer.ttl = 3m\nofer.ttl = 5m\n");
    ConfigText fixed = set.without("ofer.ttl");
    assertThat(fixed.problems()).isEmpty();
    assertThat(fixed.render()).isEqualTo("offer.ttl = 3m\n");
  }

  @Test
  void aNewFileStartsWithAHeaderThatReadsBackAsComments() {
    ConfigText t = ConfigText.empty().with("offer.ttl", "5m");

    assertThat(t.render()).startsWith("# ").endsWith("\noffer.ttl = 5m\n");
    assertThat(ConfigText.parse(t.render()).problems()).isEmpty();
    assertThat(t.lineOf("offer.ttl")).isEqualTo(ConfigText.HEADER.size() + 1);
    assertThat(t.without("offer.ttl").values()).isEmpty();
  }
}
