/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.CapacityChange;
import dev.sluice.gate.Diagnosis;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.HeartbeatOutcome;
import dev.sluice.gate.Pending;
import dev.sluice.gate.Permit;
import dev.sluice.gate.PermitLoss;
import dev.sluice.gate.PoolStatus;
import dev.sluice.gate.ProcessRef;
import dev.sluice.gate.ReleaseOutcome;
import dev.sluice.gate.Ticket;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Maps the gate's records to the JSON that {@code --json} prints: one object per line, camelCase
 * field names as in the design's "Gate JSON", times as ISO-8601 instants, enum values in lower case
 * ({@code queued}, {@code running_tracked}). Every object is built field by field, so the wire form
 * never changes with the records. Optional fields are left out when they do not apply.
 *
 * <p>{@code status} pools carry {@code queued} as a count, {@code queue} as the FIFO list of queued
 * tickets, and {@code holders}, {@code offers} and {@code paused} as lists of tickets.
 *
 * <p>Stateless and thread-safe; never blocks.
 */
public final class GateJson {
  private GateJson() {}

  /** Prints {@code node} on one line. */
  public static String line(JsonObject node) {
    return node.toString();
  }

  /** A new empty object. */
  public static JsonObject object() {
    return new JsonObject();
  }

  /** {@code {"error": code, "message": message}}. */
  public static JsonObject error(String code, String message) {
    return object().put("error", code).put("message", message);
  }

  /** An acquire (or rejoin, or pending) answer. */
  public static JsonObject outcome(AcquireOutcome outcome) {
    Ticket t = outcome.ticket();
    JsonObject o = object().put("state", stateOf(outcome));
    o.put("requestId", t.requestId()).put("pool", t.pool()).put("weight", t.weight());
    o.put("agentId", t.agentId()).put("opKey", t.opKey()).put("label", t.label());
    if (outcome instanceof AcquireOutcome.Granted g) {
      o.put("permitToken", g.permitToken());
      instant(o, "startDeadline", t.startDeadline());
    } else if (outcome instanceof AcquireOutcome.Queued) {
      o.put("position", t.position());
    } else if (outcome instanceof AcquireOutcome.Offered f) {
      o.put("offerToken", f.offerToken());
      instant(o, "offerExpiresAt", t.offerExpiresAt());
    } else if (outcome instanceof AcquireOutcome.Conflict c) {
      o.put("detail", c.detail());
    } else if (outcome instanceof AcquireOutcome.Paused) {
      o.put("detail", t.endReason());
    }
    return o;
  }

  /** The lower-case state word of an outcome: granted, queued, offered, conflict or paused. */
  public static String stateOf(AcquireOutcome outcome) {
    if (outcome instanceof AcquireOutcome.Granted) {
      return "granted";
    } else if (outcome instanceof AcquireOutcome.Queued) {
      return "queued";
    } else if (outcome instanceof AcquireOutcome.Offered) {
      return "offered";
    } else if (outcome instanceof AcquireOutcome.Conflict) {
      return "conflict";
    }
    return "paused";
  }

  /** A claim's answer: {@code {"state": "held", "requestId", "permitToken", "startDeadline"}}. */
  public static JsonObject permit(Permit permit) {
    Ticket t = permit.ticket();
    JsonObject o = object().put("state", "held").put("requestId", t.requestId());
    o.put("pool", t.pool()).put("weight", t.weight()).put("permitToken", permit.permitToken());
    instant(o, "startDeadline", t.startDeadline());
    return o;
  }

  /** A release's answer: {@code {"state": "released", "requestId", "alreadyReleased", ...}}. */
  public static JsonObject release(ReleaseOutcome r) {
    return object()
        .put("state", "released")
        .put("requestId", r.ticket().requestId())
        .put("pool", r.ticket().pool())
        .put("alreadyReleased", r.alreadyReleased())
        .put("reason", r.reason())
        .put("lost", r.loss().isPresent());
  }

  /**
   * A heartbeat's answer: {@code {"agentId", "extended", "lost": [{"requestId", "pool", "reason",
   * "endReason"}]}}; {@code agentId} is null when none was given.
   */
  public static JsonObject heartbeat(String agentId, HeartbeatOutcome h) {
    JsonObject o = object().put("agentId", agentId).put("extended", h.extended());
    List<JsonObject> lost = new java.util.ArrayList<>();
    for (Ticket t : h.lost()) {
      String reason = PermitLoss.of(t).map(PermitLoss::wireName).orElse(t.endReason());
      lost.add(
          object()
              .put("requestId", t.requestId())
              .put("pool", t.pool())
              .put("reason", reason)
              .put("endReason", t.endReason()));
    }
    return o.set("lost", lost);
  }

  /** A full ticket, with {@code state} first. */
  public static JsonObject ticket(Ticket t) {
    JsonObject o = object().put("state", lower(t.state()));
    o.put("requestId", t.requestId()).put("pool", t.pool()).put("agentId", t.agentId());
    o.put("opKey", t.opKey()).put("label", t.label()).put("reason", t.reason());
    o.put("weight", t.weight());
    if (t.phase() != null) {
      o.put("phase", lower(t.phase()));
    }
    if (t.position() > 0) {
      o.put("position", t.position());
    }
    instant(o, "createdAt", t.createdAt());
    instant(o, "since", t.since());
    instant(o, "offerExpiresAt", t.offerExpiresAt());
    instant(o, "startDeadline", t.startDeadline());
    instant(o, "leaseDeadline", t.leaseDeadline());
    t.trackedProcess().ifPresent(p -> o.set("process", process(p)));
    if (t.endReason() != null && !t.endReason().isEmpty()) {
      o.put("endReason", t.endReason());
    }
    return o;
  }

  /** A tracked process. */
  public static JsonObject process(ProcessRef p) {
    return object()
        .put("pid", p.pid())
        .put("startTicks", p.startTicks())
        .put("pgid", p.pgid())
        .put("pidNamespace", p.pidNamespace());
  }

  /** {@code {"offers": [...], "queued": [...], "paused": [...], "held": [...]}}. */
  public static JsonObject pending(Pending p) {
    JsonObject o = object();
    o.set("offers", array(p.offers(), GateJson::outcome));
    o.set("queued", array(p.queued(), GateJson::outcome));
    o.set("paused", array(p.paused(), GateJson::outcome));
    o.set("held", array(p.held(), GateJson::outcome));
    return o;
  }

  /** {@code {"pools": [{"name", "capacity", "used", "queued", "holders": [...], ...}]}}. */
  public static JsonObject status(List<PoolStatus> pools) {
    JsonObject o = object();
    o.set("pools", array(pools, GateJson::pool));
    return o;
  }

  /** One pool with its tickets; {@code queued} is a count, {@code queue} the FIFO list. */
  public static JsonObject pool(PoolStatus p) {
    JsonObject o = object().put("name", p.name()).put("capacity", p.capacity());
    o.put("used", p.used()).put("queued", p.queued().size());
    o.set("holders", array(p.holders(), GateJson::ticket));
    o.set("offers", array(p.offers(), GateJson::ticket));
    o.set("queue", array(p.queued(), GateJson::ticket));
    o.set("paused", array(p.paused(), GateJson::ticket));
    return o;
  }

  /** One pool's numbers only, as {@code pool list} prints them: every field is a count. */
  public static JsonObject poolSummary(PoolStatus p) {
    return object()
        .put("name", p.name())
        .put("capacity", p.capacity())
        .put("used", p.used())
        .put("queued", p.queued().size())
        .put("held", p.holders().size())
        .put("offered", p.offers().size())
        .put("paused", p.paused().size());
  }

  /**
   * One event of the feed: {@code {"sequence", "at", "type", "pool", "requestId", "agentId",
   * "detail"}}, always all seven, in this order ({@code requestId} and {@code detail} may be
   * empty).
   */
  public static JsonObject event(GateEvent e) {
    JsonObject o = object().put("sequence", e.sequence());
    instant(o, "at", e.at());
    return o.put("type", e.type())
        .put("pool", e.pool())
        .put("requestId", e.requestId())
        .put("agentId", e.agentId())
        .put("detail", e.detail());
  }

  /** {@code {"findings": [{"pool", "requestId", "kind", "message"}]}}. */
  public static JsonObject diagnosis(Diagnosis d) {
    JsonObject o = object();
    o.set(
        "findings",
        array(
            d.findings(),
            f ->
                object()
                    .put("pool", f.pool())
                    .put("requestId", f.requestId())
                    .put("kind", f.kind())
                    .put("message", f.message())));
    return o;
  }

  /** One capacity change. */
  public static JsonObject capacityChange(CapacityChange c) {
    JsonObject o = object();
    instant(o, "at", c.at());
    return o.put("pool", c.pool())
        .put("actor", c.actor())
        .put("oldCapacity", c.oldCapacity())
        .put("newCapacity", c.newCapacity())
        .put("reason", c.reason());
  }

  /** A JSON array of {@code items}, each mapped by {@code f}. */
  public static <T> List<JsonObject> array(
      Collection<? extends T> items, Function<T, JsonObject> f) {
    List<JsonObject> a = new java.util.ArrayList<>();
    items.forEach(i -> a.add(f.apply(i)));
    return a;
  }

  private static void instant(JsonObject o, String field, Instant at) {
    if (at != null) {
      o.put(field, at.toString());
    }
  }

  private static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }
}
