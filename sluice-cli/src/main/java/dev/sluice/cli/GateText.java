/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.CapacityChange;
import dev.sluice.gate.Diagnosis;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.Pending;
import dev.sluice.gate.Permit;
import dev.sluice.gate.PoolStatus;
import dev.sluice.gate.ReleaseOutcome;
import dev.sluice.gate.Ticket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints the gate's records for people: one line per answer or item, the request id and state
 * first, tokens spelled out (an agent reading text still finds them). Durations are relative to the
 * {@code now} passed in. Stateless and thread-safe; never blocks.
 */
public final class GateText {
  private GateText() {}

  /** An acquire, rejoin or pending answer. */
  public static String outcome(AcquireOutcome outcome) {
    Ticket t = outcome.ticket();
    String head = String.format("%-8s %s", GateJson.stateOf(outcome), request(t));
    if (outcome instanceof AcquireOutcome.Granted g) {
      return head + "  permit " + g.permitToken() + deadline("start by", t.startDeadline());
    } else if (outcome instanceof AcquireOutcome.Queued) {
      return head + "  position " + t.position();
    } else if (outcome instanceof AcquireOutcome.Offered f) {
      return head + "  offer " + f.offerToken() + deadline("claim by", t.offerExpiresAt());
    } else if (outcome instanceof AcquireOutcome.Conflict c) {
      return head + "  " + c.detail();
    }
    return head + "  rejoin with: sluice rejoin " + t.requestId() + because(t.endReason());
  }

  /** A claim's answer. */
  public static String permit(Permit p) {
    Ticket t = p.ticket();
    return String.format("%-8s %s", "held", request(t))
        + "  permit "
        + p.permitToken()
        + deadline("start by", t.startDeadline());
  }

  /** A release's answer. */
  public static String release(ReleaseOutcome r) {
    return String.format("%-8s %s", "released", request(r.ticket()))
        + (r.alreadyReleased() ? "  (already released)" : "")
        + because(r.reason())
        + (r.loss().isPresent() ? "; the permit was lost before this release" : "");
  }

  /** One ticket on one line: state, request, agent, label, and what it waits for or runs. */
  public static String ticket(Ticket t, Instant now) {
    StringBuilder b = new StringBuilder(String.format("%-8s %s", lower(t.state()), request(t)));
    b.append("  agent ").append(t.agentId());
    if (!t.label().isEmpty()) {
      b.append("  \"").append(t.label()).append('"');
    }
    if (t.position() > 0) {
      b.append("  position ").append(t.position());
    }
    if (t.phase() != null) {
      b.append("  ").append(lower(t.phase()));
    }
    t.trackedProcess().ifPresent(p -> b.append(" pid ").append(p.pid()));
    if (t.since() != null) {
      b.append("  for ").append(Durations.human(Duration.between(t.since(), now)));
    }
    b.append(because(t.endReason()));
    return b.toString();
  }

  /** An agent's offers, queue entries, paused entries and permits, one per line. */
  public static List<String> pending(Pending p) {
    List<String> lines = new ArrayList<>();
    p.offers().forEach(o -> lines.add(outcome(o)));
    p.held().forEach(o -> lines.add(outcome(o)));
    p.queued().forEach(o -> lines.add(outcome(o)));
    p.paused().forEach(o -> lines.add(outcome(o)));
    if (lines.isEmpty()) {
      lines.add("nothing pending");
    }
    return lines;
  }

  /** Every pool with its holders, offers, queue and paused requests. */
  public static List<String> status(List<PoolStatus> pools, Instant now) {
    List<String> lines = new ArrayList<>();
    if (pools.isEmpty()) {
      lines.add("no pools yet");
    }
    for (PoolStatus p : pools) {
      lines.add(poolLine(p));
      for (List<Ticket> group : List.of(p.holders(), p.offers(), p.queued(), p.paused())) {
        group.forEach(t -> lines.add("  " + ticket(t, now)));
      }
    }
    return lines;
  }

  /** One pool's numbers on one line. */
  public static String poolLine(PoolStatus p) {
    return String.format(
        "pool %-16s capacity %d  used %d  held %d  offered %d  queued %d  paused %d",
        p.name(),
        p.capacity(),
        p.used(),
        p.holders().size(),
        p.offers().size(),
        p.queued().size(),
        p.paused().size());
  }

  /** One event of the feed. */
  public static String event(GateEvent e) {
    return String.format(
        "%6d %s %-12s %-12s %s %s%s",
        e.sequence(),
        e.at(),
        e.type(),
        e.pool(),
        e.requestId().isEmpty() ? "-" : e.requestId(),
        e.agentId(),
        e.detail().isEmpty() ? "" : "  " + e.detail());
  }

  /** Each finding on one line, or a line saying there is none. */
  public static List<String> diagnosis(Diagnosis d) {
    List<String> lines = new ArrayList<>();
    for (Diagnosis.Finding f : d.findings()) {
      String req = f.requestId() == null || f.requestId().isEmpty() ? "" : " " + f.requestId();
      lines.add(String.format("%-19s pool %s%s: %s", f.kind(), f.pool(), req, f.message()));
    }
    if (lines.isEmpty()) {
      lines.add("nothing to report");
    }
    return lines;
  }

  /** One capacity change. */
  public static String capacityChange(CapacityChange c) {
    if (c.oldCapacity() == 0) {
      return String.format(
          "%s pool %s created with capacity %d by %s%s",
          c.at(), c.pool(), c.newCapacity(), c.actor(), because(c.reason()));
    }
    if (c.oldCapacity() == c.newCapacity()) {
      return String.format("%s pool %s capacity %d, unchanged", c.at(), c.pool(), c.newCapacity());
    }
    return String.format(
        "%s pool %s capacity %d -> %d by %s%s",
        c.at(), c.pool(), c.oldCapacity(), c.newCapacity(), c.actor(), because(c.reason()));
  }

  private static String request(Ticket t) {
    return "request " + t.requestId() + "  pool " + t.pool() + "  weight " + t.weight();
  }

  private static String deadline(String what, Instant at) {
    return at == null ? "" : "  (" + what + " " + at + ")";
  }

  private static String because(String reason) {
    return reason == null || reason.isEmpty() ? "" : "  (" + reason + ")";
  }

  private static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }
}
