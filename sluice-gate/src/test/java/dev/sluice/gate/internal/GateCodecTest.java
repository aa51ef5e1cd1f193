/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.GateSettings;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The stored document keeps every field of the state, and refuses what it did not write. */
class GateCodecTest {
  @Test
  void aRichStateSurvivesTheRoundTripUnchanged() throws IOException {
    GateFixture f = new GateFixture(3);
    String held = f.grant("a", "op1", 2);
    f.permits.start(held, GateFixture.process(77, 12345), "launcher-1", f.now);
    f.queue("b", "op2", 2);
    f.machine.setCapacity("other", 2, "ops", "night", f.now);
    AcquireOutcome c =
        f.machine.acquire(GateFixture.request("c", "op3", "other", 1), "owner-c", f.now);
    f.machine.acquire(GateFixture.request("e", "op5", "other", 2), f.now);
    f.advance(1_000);
    f.permits.release(((AcquireOutcome.Granted) c).permitToken(), "", f.now);
    AcquireOutcome offered = f.machine.acquire(GateFixture.request("e", "op5", "other", 2), f.now);
    f.machine.decline(((AcquireOutcome.Offered) offered).offerToken(), f.now);
    AcquireOutcome d = f.acquire("d", "op4", "third", 1);
    f.permits.markStarted(((AcquireOutcome.Granted) d).permitToken(), f.now);

    String text = GateCodec.write(f.state);
    GateState back = GateCodec.read(text, f.state.settings());

    assertThat(GateCodec.write(back)).isEqualTo(text);
    assertThat(new GateViews(back, () -> "x").status())
        .isEqualTo(new GateViews(f.state, () -> "y").status());
    assertThat(back.owners()).isEqualTo(f.state.owners());
    assertThat(back.history()).isEqualTo(f.state.history());
    assertThat(back.tokens).isEqualTo(f.state.tokens);
    assertThat(back.liveByKey).isEqualTo(f.state.liveByKey);
  }

  @Test
  void settingsSurviveTheRoundTrip() throws IOException {
    GateSettings s = GateFixture.settings(7).build();
    assertThat(GateCodec.readSettings(GateCodec.writeSettings(s))).isEqualTo(s);
  }

  @Test
  void theJobLogRetentionIsKeptAndAHomeWithoutOneGetsTheDefault() throws IOException {
    GateSettings s = GateFixture.settings(2).jobLogRetention(java.time.Duration.ofHours(5)).build();
    String text = GateCodec.writeSettings(s);
    assertThat(GateCodec.readSettings(text).jobLogRetention()).hasHours(5);
    String older = text.replaceFirst(",\"jobLogRetention\":\"PT5H\"", "");
    assertThat(older).doesNotContain("jobLogRetention");
    assertThat(GateCodec.readSettings(older).jobLogRetention()).hasDays(7);
    assertThatThrownBy(
            () -> GateFixture.settings(2).jobLogRetention(java.time.Duration.ZERO).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("jobLogRetention must be positive and at most 365 days, was PT0S");
  }

  @Test
  void malformedDocumentsNameWhatIsWrong() {
    GateSettings s = GateFixture.settings(1).build();
    assertThatThrownBy(() -> GateCodec.read("[1, 2]", s))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("not a JSON object");
    assertThatThrownBy(() -> GateCodec.read("{\"nextRequest\": 1}", s))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("missing field 'nextEvent'");
    assertThatThrownBy(() -> GateCodec.read("{\"nextRequest\": \"x\", \"nextEvent\": 1}", s))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("field 'nextRequest' must be a long");
    assertThatThrownBy(() -> GateCodec.readSettings("{\"defaultCapacity\": 0}"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("malformed gate settings");
  }
}
