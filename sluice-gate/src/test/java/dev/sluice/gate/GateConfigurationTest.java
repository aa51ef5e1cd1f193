/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The configuration file of a real home, through the API: changes, refusals, repairs. */
class GateConfigurationTest {
  @TempDir Path tmp;

  @Test
  void aSetValueIsInForceForAGateThatWasAlreadyOpen() {
    Path home = tmp.resolve("home");
    try (GateService gate = GateService.open(home);
        GateConfiguration config = GateConfiguration.open(home)) {
      assertThat(gate.settings().offerTtl()).isEqualTo(Duration.ofSeconds(30));

      ConfigChange c = config.set("offer.ttl", "PT2H", "alice", "slow agents");

      assertThat(c.describe()).isEqualTo("offer.ttl 30s (default) -> 2h");
      assertThat(gate.settings().offerTtl()).isEqualTo(Duration.ofHours(2));
      assertThat(config.history()).containsExactly(c);
      assertThat(config.set("offer.ttl", "120m", "bob", "").changed()).isFalse();
      assertThat(config.history()).hasSize(1);
    }
  }

  @Test
  void aRefusedValueOpensNothingAndWritesNothing() {
    Path home = tmp.resolve("home");
    try (GateConfiguration config = GateConfiguration.open(home)) {
      assertThatThrownBy(() -> config.set("offer.ttl", "0s", "alice", ""))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("offer.ttl = '0s': not a duration from 1s to 1d");
      assertThatThrownBy(() -> config.unset("ofer.ttl", "alice", ""))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("unknown key 'ofer.ttl' (did you mean offer.ttl?)");
    }
    assertThat(home).doesNotExist();
  }

  @Test
  void aBadFileStopsTheGateUntilTheConfigurationRepairsIt() throws Exception {
    Path home = tmp.resolve("home");
    GateService.open(home).close();
    Path file = home.resolve("config.properties");
    Files.writeString(file, "offer.ttl = 2m\nevents.kept = lots\n");

    try (GateService gate = GateService.open(home)) {
      assertThatThrownBy(gate::status)
          .isInstanceOf(ConfigFileException.class)
          .hasMessageContaining(file + " line 2: events.kept = 'lots': not a whole number");
    }
    try (GateConfiguration config = GateConfiguration.open(home)) {
      ConfigView view = config.view();
      assertThat(view.problems()).extracting(ConfigProblem::line).containsExactly(2);
      ConfigEntry kept = view.entries().get(6);
      assertThat(kept.key()).isEqualTo("events.kept");
      assertThat(kept.value()).isEqualTo(new ConfigValue("lots", ConfigValue.Source.FILE));
      assertThat(kept.problem()).startsWith("not a whole number from 100");
      // Another key can be set meanwhile; it alone takes effect, and the gate stays stopped.
      config.set("long.hold", "1h", "alice", "");
      assertThat(Files.readString(file))
          .isEqualTo("offer.ttl = 2m\nevents.kept = lots\nlong.hold = 1h\n");
      try (GateService gate = GateService.open(home)) {
        assertThatThrownBy(gate::status).isInstanceOf(ConfigFileException.class);
      }

      config.set("events.kept", "500", "alice", "fix");
      assertThat(config.history())
          .extracting(c -> c.via() + " " + c.describe())
          .containsExactly(
              "SET long.hold 30m (default) -> 1h",
              "FILE_EDIT offer.ttl 30s (default) -> 2m",
              "SET events.kept 10000 (default) -> 500");
      assertThat(config.view().problems()).isEmpty();
    }
    try (GateService gate = GateService.open(home)) {
      assertThat(gate.settings().eventsKept()).isEqualTo(500);
      assertThat(gate.settings().offerTtl()).isEqualTo(Duration.ofMinutes(2));
    }
  }
}
