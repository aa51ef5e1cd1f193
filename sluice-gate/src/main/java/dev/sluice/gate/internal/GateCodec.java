/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.sluice.gate.CapacityChange;
import dev.sluice.gate.GateSettings;
import dev.sluice.gate.PermitPhase;
import dev.sluice.gate.ProcessRef;
import dev.sluice.gate.TicketState;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;

/**
 * The gate's state as a JSON document: pools with their queues, requests with their token hashes,
 * the capacity history, the counters, and the configuration with its history ({@link ConfigCodec}).
 * Events are not part of it; a store keeps them in a table of their own so that a transaction reads
 * only what it changes. Every field is read by name into a known type: nothing in the document
 * chooses a class.
 *
 * <p>Thread-safe (stateless).
 */
public final class GateCodec {
  private GateCodec() {}

  /** A document writer's body. */
  @FunctionalInterface
  private interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  private static String document(Body body) {
    StringWriter out = new StringWriter(1024);
    try (JsonGenerator g = JsonDoc.FACTORY.createGenerator(out)) {
      g.writeStartObject();
      body.write(g);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode gate state", e);
    }
    return out.toString();
  }

  /** Encodes everything but the events. */
  public static String write(GateState s) {
    return document(
        g -> {
          g.writeNumberField("nextRequest", s.nextRequest);
          g.writeNumberField("nextEvent", s.nextEvent);
          g.writeArrayFieldStart("pools");
          for (PoolRecord p : s.pools.values()) {
            g.writeStartObject();
            g.writeStringField("name", p.name);
            g.writeNumberField("capacity", p.capacity);
            g.writeArrayFieldStart("queue");
            for (String id : p.queue) {
              g.writeString(id);
            }
            g.writeEndArray();
            g.writeEndObject();
          }
          g.writeEndArray();
          g.writeArrayFieldStart("entries");
          for (Entry e : s.entries.values()) {
            entry(g, s, e);
          }
          g.writeEndArray();
          g.writeArrayFieldStart("history");
          for (CapacityChange c : s.history) {
            g.writeStartObject();
            g.writeNumberField("at", c.at().toEpochMilli());
            g.writeStringField("pool", c.pool());
            g.writeStringField("actor", c.actor());
            g.writeNumberField("old", c.oldCapacity());
            g.writeNumberField("new", c.newCapacity());
            g.writeStringField("reason", c.reason());
            g.writeEndObject();
          }
          g.writeEndArray();
          ConfigCodec.write(g, s);
        });
  }

  private static void entry(JsonGenerator g, GateState s, Entry e) throws IOException {
    g.writeStartObject();
    g.writeStringField("id", e.id);
    g.writeStringField("pool", e.pool);
    g.writeStringField("agent", e.agentId);
    g.writeStringField("op", e.opKey);
    g.writeStringField("label", e.label);
    g.writeStringField("reason", e.reason);
    g.writeNumberField("weight", e.weight);
    g.writeNumberField("createdAt", e.createdAt);
    g.writeStringField("state", e.state.name());
    g.writeStringField("phase", e.phase == null ? "" : e.phase.name());
    g.writeNumberField("since", e.since);
    g.writeNumberField("offerExpiresAt", e.offerExpiresAt);
    g.writeNumberField("startDeadline", e.startDeadline);
    g.writeNumberField("leaseDeadline", e.leaseDeadline);
    g.writeStringField("endReason", e.endReason);
    g.writeNumberField("round", e.round);
    g.writeStringField("owner", e.owner);
    if (e.process != null) {
      g.writeObjectFieldStart("process");
      g.writeNumberField("pid", e.process.pid());
      g.writeNumberField("startTicks", e.process.startTicks());
      g.writeNumberField("pgid", e.process.pgid());
      g.writeStringField("pidNamespace", e.process.pidNamespace());
      g.writeEndObject();
    }
    g.writeArrayFieldStart("tokens");
    for (String hash : e.tokenHashes) {
      TokenRecord t = s.tokens.get(hash);
      if (t != null) {
        g.writeStartObject();
        g.writeStringField("hash", hash);
        g.writeStringField("kind", t.kind().name());
        g.writeNumberField("round", t.round());
        g.writeEndObject();
      }
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  /**
   * Decodes a document written by {@link #write}.
   *
   * @throws IOException if the text is not such a document
   */
  public static GateState read(String text, GateSettings settings) throws IOException {
    GateState s = new GateState(settings);
    try {
      JsonDoc root = JsonDoc.parse(text);
      s.nextRequest = root.num("nextRequest");
      s.nextEvent = root.num("nextEvent");
      for (JsonDoc p : root.docs("pools")) {
        PoolRecord pool = new PoolRecord(p.str("name"), p.integer("capacity"));
        pool.queue.addAll(p.strings("queue"));
        s.pools.put(pool.name, pool);
      }
      for (JsonDoc n : root.docs("entries")) {
        Entry e = entry(s, n);
        s.entries.put(e.id, e);
        if (e.state.isLive()) {
          s.liveByKey.put(GateState.key(e.agentId, e.opKey), e.id);
        }
      }
      for (JsonDoc c : root.docs("history")) {
        s.history.add(
            new CapacityChange(
                Instant.ofEpochMilli(c.num("at")),
                c.str("pool"),
                c.str("actor"),
                c.integer("old"),
                c.integer("new"),
                c.str("reason")));
      }
      ConfigCodec.read(root, s);
    } catch (RuntimeException e) {
      throw new IOException("malformed gate state: " + e.getMessage(), e);
    }
    return s;
  }

  private static Entry entry(GateState s, JsonDoc n) {
    Entry e =
        new Entry(
            n.str("id"),
            n.str("pool"),
            n.str("agent"),
            n.str("op"),
            n.str("label"),
            n.str("reason"),
            n.integer("weight"),
            n.num("createdAt"));
    e.state = TicketState.valueOf(n.str("state"));
    String phase = n.str("phase");
    e.phase = phase.isEmpty() ? null : PermitPhase.valueOf(phase);
    e.since = n.num("since");
    e.offerExpiresAt = n.num("offerExpiresAt");
    e.startDeadline = n.num("startDeadline");
    e.leaseDeadline = n.num("leaseDeadline");
    e.endReason = n.str("endReason");
    e.round = n.integer("round");
    e.owner = n.str("owner");
    if (n.has("process")) {
      JsonDoc p = n.doc("process");
      e.process =
          new ProcessRef(p.num("pid"), p.num("startTicks"), p.num("pgid"), p.str("pidNamespace"));
    }
    for (JsonDoc t : n.docs("tokens")) {
      String hash = t.str("hash");
      e.tokenHashes.addLast(hash);
      s.tokens.put(
          hash, new TokenRecord(e.id, TokenRecord.Kind.valueOf(t.str("kind")), t.integer("round")));
    }
    return e;
  }

  /** Encodes settings as a stable document, stored once when a home is created. */
  public static String writeSettings(GateSettings settings) {
    return document(
        g -> {
          g.writeNumberField("defaultCapacity", settings.defaultCapacity());
          g.writeStringField("offerTtl", settings.offerTtl().toString());
          g.writeStringField("startDeadline", settings.startDeadline().toString());
          g.writeStringField("untrackedLease", settings.untrackedLease().toString());
          g.writeStringField("longHold", settings.longHold().toString());
          g.writeNumberField("eventsKept", settings.eventsKept());
          g.writeStringField("eventsMaxAge", settings.eventsMaxAge().toString());
          g.writeStringField("terminalRetention", settings.terminalRetention().toString());
          g.writeStringField("jobLogRetention", settings.jobLogRetention().toString());
        });
  }

  /**
   * Decodes {@link #writeSettings}.
   *
   * @throws IOException if the text is not such a document
   */
  public static GateSettings readSettings(String text) throws IOException {
    try {
      JsonDoc n = JsonDoc.parse(text);
      return new GateSettings(
          n.integer("defaultCapacity"),
          Duration.parse(n.str("offerTtl")),
          Duration.parse(n.str("startDeadline")),
          Duration.parse(n.str("untrackedLease")),
          Duration.parse(n.str("longHold")),
          n.integer("eventsKept"),
          Duration.parse(n.str("eventsMaxAge")),
          Duration.parse(n.str("terminalRetention")),
          // Homes made before submitted jobs existed have no such field: they get the default.
          n.has("jobLogRetention")
              ? Duration.parse(n.str("jobLogRetention"))
              : GateSettings.defaults().jobLogRetention());
    } catch (RuntimeException e) {
      throw new IOException("malformed gate settings: " + e.getMessage(), e);
    }
  }
}
