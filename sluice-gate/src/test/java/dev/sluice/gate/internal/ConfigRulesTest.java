/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static dev.sluice.gate.internal.GateFixture.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.ConfigChange;
import dev.sluice.gate.ConfigChange.Via;
import dev.sluice.gate.ConfigValue;
import dev.sluice.gate.ConfigValue.Source;
import dev.sluice.gate.GateException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Adopting the configuration file's values: recorded key by key, in force at once. */
class ConfigRulesTest {
  private final GateFixture f = new GateFixture(1);
  private final ConfigRules rules = new ConfigRules(f.state);

  private static ConfigRules.Intent set(String key) {
    return new ConfigRules.Intent(key, Via.SET, "alice", "longer offers");
  }

  @Test
  void aSetKeyIsRecordedAsTheActorsAndOtherEditsAsTheFiles() {
    List<ConfigChange> changes =
        rules.adopt(Map.of("offer.ttl", "5m", "events.kept", "500"), set("offer.ttl"), f.now);

    assertThat(changes)
        .containsExactly(
            new ConfigChange(
                GateFixture.at(f.now),
                "offer.ttl",
                Via.SET,
                new ConfigValue("10s", Source.DEFAULT),
                new ConfigValue("5m", Source.FILE),
                "alice",
                "longer offers"),
            new ConfigChange(
                GateFixture.at(f.now),
                "events.kept",
                Via.FILE_EDIT,
                new ConfigValue("10000", Source.DEFAULT),
                new ConfigValue("500", Source.FILE),
                "",
                ""));
    assertThat(f.state.configHistory()).isEqualTo(changes);
    assertThat(f.events())
        .extracting(e -> e.type() + " " + e.agentId() + " " + e.detail())
        .containsExactly(
            "config_changed alice offer.ttl 10s (default) -> 5m",
            "config_changed  events.kept 10000 (default) -> 500");
  }

  @Test
  void theNewValuesAreInForceAtOnce() {
    rules.adopt(Map.of("offer.ttl", "5m", "default.capacity", "2"), set("offer.ttl"), f.now);

    String first = f.grant("a", "op", 2);
    f.queue("b", "op", 1);
    f.release(first);

    assertThat(f.ticket("r2").offerExpiresAt())
        .isEqualTo(GateFixture.at(f.now).plus(Duration.ofMinutes(5)));
    assertThat(f.state.settings().defaultCapacity()).isEqualTo(2);
  }

  @Test
  void unsettingAKeyBringsBackTheHomesOwnValueAndAnUnchangedFileRecordsNothing() {
    rules.adopt(Map.of("offer.ttl", "5m"), set("offer.ttl"), f.now);
    assertThat(rules.adopt(Map.of("offer.ttl", "5m"), ConfigRules.Intent.fileEdit(), f.now))
        .isEmpty();

    List<ConfigChange> back =
        rules.adopt(Map.of(), new ConfigRules.Intent("offer.ttl", Via.UNSET, "bob", ""), f.now);

    assertThat(back).hasSize(1);
    assertThat(back.get(0).describe()).isEqualTo("offer.ttl 5m -> 10s (default)");
    assertThat(f.state.settings()).isEqualTo(f.state.baseSettings());
    assertThat(f.state.configHistory()).hasSize(2);
  }

  @Test
  void aDefaultPoolThatIsNotSetUpIsRefusedAndNothingChanges() {
    f.machine.setCapacity("build", 2, "ops", "", f.now);
    long events = f.state.lastEventSequence();

    GateException e =
        refused(() -> rules.adopt(Map.of("default.pool", "biuld"), set("default.pool"), f.now));

    assertThat(e.code()).isEqualTo(GateException.Code.UNKNOWN_POOL);
    assertThat(e.getMessage())
        .contains("default.pool = 'biuld'", "known pools: build", "sluice pool set biuld");
    assertThat(f.state.defaultPool()).isEqualTo("default");
    assertThat(f.state.configHistory()).isEmpty();
    assertThat(f.state.lastEventSequence()).isEqualTo(events);

    rules.adopt(Map.of("default.pool", "build"), set("default.pool"), f.now);
    assertThat(f.state.defaultPool()).isEqualTo("build");
  }

  @Test
  void aRemovedDefaultPoolIsRefusedAtUseNamingTheConfiguration() {
    f.machine.setCapacity("build", 2, "ops", "", f.now);
    rules.adopt(Map.of("default.pool", "build"), set("default.pool"), f.now);
    f.machine.removePool("build", "ops", "", f.now);

    GateException e =
        refused(() -> f.machine.acquire(GateFixture.request("a", "op", "build", 1), f.now));

    assertThat(e.getMessage())
        .contains("no pool 'build'", "default.pool", "sluice config set default.pool");
  }

  @Test
  void theConfigurationAndItsHistorySurviveTheStoredDocument() throws IOException {
    rules.adopt(Map.of("offer.ttl", "5m", "default.pool", "default"), set("offer.ttl"), f.now);
    AcquireOutcome granted = f.acquire("a", "op", 1);
    assertThat(granted).isInstanceOf(AcquireOutcome.Granted.class);

    String text = GateCodec.write(f.state);
    GateState back = GateCodec.read(text, f.state.baseSettings());

    assertThat(GateCodec.write(back)).isEqualTo(text);
    assertThat(back.config()).isEqualTo(f.state.config());
    assertThat(back.configHistory()).isEqualTo(f.state.configHistory());
    assertThat(back.settings()).isEqualTo(f.state.settings());
    assertThat(back.settings().offerTtl()).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void aHomeWithoutConfigurationStoresTheDocumentItAlwaysDid() throws IOException {
    f.acquire("a", "op", 1);
    assertThat(GateCodec.write(f.state)).doesNotContain("config");
  }
}
