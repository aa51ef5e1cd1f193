/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.GateService;
import dev.sluice.gate.GateSettings;
import dev.sluice.gate.Ticket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Labels for the feed and the plain snapshot, from a real gate home: a held request with a label, a
 * cancelled one with a label (no longer in any pool, so its label is read back from the gate), and
 * a cancelled one without.
 */
class TopSnapshotTest {
  @TempDir Path tmp;
  GateService gate;
  Ticket held;
  String unlabelled;

  @BeforeEach
  void aPoolWithAHolderAndTwoCancelledRequests() {
    gate = GateService.open(tmp.resolve("home"), GateSettings.builder().build());
    gate.setCapacity("build", 1, "ops", "");
    held = gate.acquire(request("alice", "full build")).ticket();
    assertThat(gate.acquire(request("carol", "ended job")))
        .isInstanceOf(AcquireOutcome.Queued.class);
    unlabelled = gate.acquire(request("bob", "")).ticket().requestId();
    gate.cancel("carol", gate.pending("carol").queued().get(0).ticket().requestId());
    gate.cancel("bob", unlabelled);
  }

  @AfterEach
  void close() {
    gate.close();
  }

  static AcquireRequest request(String agent, String label) {
    return new AcquireRequest(agent, "op", "build", 1, label, "");
  }

  @Test
  void eventsAreNamedByLabelThenIdThenActor() {
    List<FeedEvent> events = new EventLabels(gate).label(gate.events(0, 100), gate.status());

    assertThat(events)
        .extracting(e -> e.event().type() + " " + e.subject())
        .containsExactly(
            "capacity_changed ops",
            "granted full build",
            "queued ended job",
            "queued " + unlabelled,
            "cancelled ended job",
            "cancelled " + unlabelled);
  }

  @Test
  void theSnapshotShowsEverythingUncutInPlainText() {
    Clock clock = Clock.fixed(held.since(), ZoneOffset.UTC);
    List<String> lines = TopSnapshot.lines(gate, 15, clock);

    assertThat(lines.get(0))
        .isEqualTo(
            "sluice top  "
                + gate.home()
                + "  as of "
                + TimeText.clock(held.since(), ZoneOffset.UTC));
    assertThat(lines.get(1)).startsWith("  LABEL").contains("AGENT", "ID", "PID", "STATE", "TIME");
    assertThat(lines.get(2)).isEqualTo("build  1/1 used  1 held");
    assertThat(lines.get(3))
        .matches(
            "  full build  alice  " + held.requestId() + " +-  claimed +1  start within 1m00s");
    assertThat(lines.get(4)).isEqualTo("events");
    assertThat(lines.subList(5, lines.size()))
        .hasSize(6)
        .allSatisfy(l -> assertThat(l).matches("\\d\\d:\\d\\d:\\d\\d  \\S+ +build  .*"));
    assertThat(String.join("\n", lines)).doesNotContain("\033", "…");
  }
}
