/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import dev.sluice.gate.GateEvent;
import dev.sluice.gate.PermitPhase;
import dev.sluice.gate.PoolStatus;
import dev.sluice.gate.ProcessRef;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.TicketState;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jline.utils.AttributedCharSequence;
import org.jline.utils.AttributedString;

/**
 * Gate records for frame tests, built directly so that every deadline is known to the millisecond:
 * a pool {@code build} with one request in each state a pool shows, long labels, and a feed.
 */
final class TopFixtures {
  /** Where the tests' clock stands: 09:30:00.250 UTC, 15:00:00.250 in Kolkata (UTC+05:30). */
  static final Instant NOW = Instant.parse("2026-03-01T09:30:00.250Z");

  static final ZoneId ZONE = ZoneId.of("Asia/Kolkata");
  static final Path HOME = Path.of("/home/someone/.local/state/sluice");

  /** Longer than any screen's label column. */
  static final String LONG =
      "integration tests of the payment service against the staging database with every"
          + " optional module enabled and a very verbose logger";

  private TopFixtures() {}

  static Clock clockAt(Instant now) {
    return Clock.fixed(now, ZONE);
  }

  static Ticket ticket(String id, String label, TicketState state, PermitPhase phase) {
    return new Ticket(
        id,
        "build",
        "agent-" + id,
        "op",
        label,
        "",
        1,
        state,
        phase,
        0,
        NOW.minusSeconds(300),
        NOW.minusSeconds(90),
        null,
        null,
        null,
        null,
        "");
  }

  /** A tracked holder of weight 2, running since 09:28:30 UTC (14:58:30 local), pid 4242. */
  static Ticket running(String id, String label) {
    Ticket t = ticket(id, label, TicketState.HELD, PermitPhase.RUNNING_TRACKED);
    return with(t, 2, 0, null, null, null, new ProcessRef(4242, 1, 4242, ""));
  }

  static Ticket offered(String id, String label, Instant expires) {
    return with(ticket(id, label, TicketState.OFFERED, null), 1, 0, expires, null, null, null);
  }

  static Ticket claimed(String id, String label, Instant startBy) {
    Ticket t = ticket(id, label, TicketState.HELD, PermitPhase.CLAIMED);
    return with(t, 1, 0, null, startBy, null, null);
  }

  static Ticket untracked(String id, String label, Instant lapses) {
    Ticket t = ticket(id, label, TicketState.HELD, PermitPhase.RUNNING_UNTRACKED);
    return with(t, 1, 0, null, null, lapses, null);
  }

  static Ticket queued(String id, String label, int position) {
    return with(ticket(id, label, TicketState.QUEUED, null), 1, position, null, null, null, null);
  }

  static Ticket paused(String id, String label) {
    return ticket(id, label, TicketState.PAUSED, null);
  }

  static Ticket with(
      Ticket t,
      int weight,
      int position,
      Instant offer,
      Instant start,
      Instant lease,
      ProcessRef process) {
    return new Ticket(
        t.requestId(),
        t.pool(),
        t.agentId(),
        t.opKey(),
        t.label(),
        t.reason(),
        weight,
        t.state(),
        t.phase(),
        position,
        t.createdAt(),
        t.since(),
        offer,
        start,
        lease,
        process,
        t.endReason());
  }

  /**
   * Pool {@code build}, capacity 4: a tracked holder with a long label, a claimed permit that must
   * start within 58 s, an untracked one whose lease lapses in 45 s, an offer expiring in 12.3 s
   * (read as 13 s), a queued request without a label, a paused one.
   */
  static List<PoolStatus> busyPool() {
    return List.of(
        new PoolStatus(
            "build",
            4,
            5,
            List.of(queued("r5", "", 1)),
            List.of(
                running("r1", LONG),
                claimed("r2", "lint", NOW.plusSeconds(58)),
                untracked("r3", "agent task", NOW.plusSeconds(45))),
            List.of(offered("r4", "docs", NOW.plus(Duration.ofMillis(12_300)))),
            List.of(paused("r6", "nightly"))));
  }

  /** {@code n} events, one a second up to {@link #NOW}, every other one of a labelled request. */
  static List<FeedEvent> events(int n) {
    List<FeedEvent> events = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      Instant at = NOW.minusSeconds(n - i).minusMillis(123);
      GateEvent e = new GateEvent(i, at, "granted", "build", "r" + (100 + i), "agent", "weight 1");
      events.add(new FeedEvent(e, i % 2 == 0 ? "event label " + i : ""));
    }
    return events;
  }

  static TopState state(List<PoolStatus> pools, List<FeedEvent> events) {
    return new TopState(HOME, pools, events, NOW.minusSeconds(5));
  }

  static List<String> text(List<AttributedString> lines) {
    return lines.stream().map(AttributedString::toString).toList();
  }

  private static final Pattern SGR = Pattern.compile("\033\\[([0-9;]*)m");

  /** The colour codes (foreground or background) in the line as a 256-colour terminal gets it. */
  static List<String> colourCodes(AttributedString line) {
    String ansi = line.toAnsi(256, AttributedCharSequence.ForceMode.None);
    List<String> codes = new ArrayList<>();
    Matcher m = SGR.matcher(ansi);
    while (m.find()) {
      for (String p : m.group(1).split(";")) {
        if (p.matches("3[0-9]|4[0-9]|9[0-7]|10[0-7]")) {
          codes.add(p);
        }
      }
    }
    return codes;
  }

  /** The row of the request named {@code name} (its label's start, or its id). */
  static String rowOf(List<String> frame, String name) {
    return frame.stream()
        .filter(l -> l.startsWith("  " + name))
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("no row for " + name + " in\n" + String.join("\n", frame)));
  }
}
