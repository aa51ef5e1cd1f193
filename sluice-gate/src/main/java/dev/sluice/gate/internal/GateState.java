/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.CapacityChange;
import dev.sluice.gate.ConfigChange;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateSettings;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.TicketState;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything the gate stores: pools with their queues, requests (live, and ended ones for an hour),
 * token hashes, the event feed, the capacity history, and the configuration file's values last
 * adopted with their history (the settings in force are the home's own with those values over
 * them). Transitions in {@link GateMachine} and {@link GateSweeper} change it; a store persists it
 * between transitions.
 *
 * <p>Not thread-safe: a store applies one transition at a time.
 */
public final class GateState {
  final GateSettings base;
  GateSettings settings;
  String defaultPool;
  final Map<String, String> config = new LinkedHashMap<>();
  final List<ConfigChange> configHistory = new ArrayList<>();
  final Map<String, PoolRecord> pools = new TreeMap<>();
  final Map<String, Entry> entries = new LinkedHashMap<>();
  final Map<String, String> liveByKey = new HashMap<>();
  final Map<String, TokenRecord> tokens = new HashMap<>();
  final ArrayDeque<GateEvent> events = new ArrayDeque<>();
  final List<CapacityChange> history = new ArrayList<>();
  long nextRequest = 1;
  long nextEvent = 1;

  /**
   * An empty gate.
   *
   * @param settings timing and retention rules: the home's own, before any configuration file
   */
  public GateState(GateSettings settings) {
    this.base = settings;
    this.settings = settings;
    this.defaultPool = AcquireRequest.DEFAULT_POOL;
  }

  /** The rules this state follows: the home's own with the configuration's values over them. */
  public GateSettings settings() {
    return settings;
  }

  /** The rules the home was made with, which a key not in the configuration file takes. */
  public GateSettings baseSettings() {
    return base;
  }

  /** The pool a request without one uses: {@code default.pool}, else {@code default}. */
  public String defaultPool() {
    return defaultPool;
  }

  /** The configuration file's values last adopted, by key, in the gate's own form. */
  public Map<String, String> config() {
    return java.util.Collections.unmodifiableMap(config);
  }

  /** Every configuration change, oldest first. */
  public List<ConfigChange> configHistory() {
    return List.copyOf(configHistory);
  }

  /**
   * Adopts checked configuration values: the settings and default pool follow them at once. They
   * are kept in the keys' order (a file whose lines moved has changed nothing), and keys this
   * version does not know are dropped.
   *
   * @throws IllegalArgumentException if a value is not allowed
   */
  void configure(Map<String, String> values) {
    GateConfig c = ConfigKeys.overlay(base, values);
    config.clear();
    for (ConfigKey<?> k : ConfigKeys.ALL) {
      String v = values.get(k.name());
      if (v != null) {
        config.put(k.name(), v);
      }
    }
    settings = c.settings();
    defaultPool = c.defaultPool();
  }

  /** Events with a sequence above {@code since}, oldest first. */
  public List<GateEvent> eventsSince(long since) {
    List<GateEvent> out = new ArrayList<>();
    for (GateEvent e : events) {
      if (e.sequence() > since) {
        out.add(e);
      }
    }
    return out;
  }

  /** The sequence of the newest event, or 0. */
  public long lastEventSequence() {
    return nextEvent - 1;
  }

  /** Every capacity change, oldest first. */
  public List<CapacityChange> history() {
    return List.copyOf(history);
  }

  PoolRecord pool(String name) {
    return pools.computeIfAbsent(name, n -> new PoolRecord(n, settings.defaultCapacity()));
  }

  int used(String pool) {
    int used = 0;
    for (Entry e : entries.values()) {
      if (e.pool.equals(pool)) {
        used += e.usedWeight();
      }
    }
    return used;
  }

  static String key(String agentId, String opKey) {
    return agentId + '\u0000' + opKey;
  }

  void event(long now, String type, Entry e, String detail) {
    event(now, type, e.pool, e.id, e.agentId, detail);
  }

  void event(long now, String type, String pool, String requestId, String agent, String detail) {
    events.addLast(
        new GateEvent(
            nextEvent++, Instant.ofEpochMilli(now), type, pool, requestId, agent, detail));
    while (events.size() > settings.eventsKept()) {
      events.removeFirst();
    }
  }

  Ticket snapshot(Entry e) {
    int position = 0;
    if (e.state == TicketState.QUEUED) {
      int i = 1;
      for (String id : pool(e.pool).queue) {
        if (id.equals(e.id)) {
          position = i;
          break;
        }
        i++;
      }
    }
    return new Ticket(
        e.id,
        e.pool,
        e.agentId,
        e.opKey,
        e.label,
        e.reason,
        e.weight,
        e.state,
        e.phase,
        position,
        instant(e.createdAt),
        instant(e.since),
        e.offerExpiresAt == 0 ? null : instant(e.offerExpiresAt),
        e.startDeadline == 0 ? null : instant(e.startDeadline),
        e.leaseDeadline == 0 ? null : instant(e.leaseDeadline),
        e.process,
        e.endReason);
  }

  /** Owner registrations that live requests depend on. */
  public java.util.Set<String> owners() {
    java.util.Set<String> out = new java.util.TreeSet<>();
    for (Entry e : entries.values()) {
      if (e.state.isLive() && !e.owner.isEmpty()) {
        out.add(e.owner);
      }
    }
    return out;
  }

  /**
   * Held permits bound to a process group whose launcher is gone: nobody reports their end, so the
   * store checks the group itself.
   */
  public List<Ticket> orphanedGroups() {
    List<Ticket> out = new ArrayList<>();
    for (Entry e : entries.values()) {
      if (e.phase == dev.sluice.gate.PermitPhase.RUNNING_TRACKED && e.owner.isEmpty()) {
        out.add(snapshot(e));
      }
    }
    return out;
  }

  /**
   * Events at or below this sequence are beyond {@link GateSettings#eventsKept()}; a store that
   * keeps events outside the state deletes them.
   */
  public long eventsDroppedUpTo() {
    return nextEvent - 1 - settings.eventsKept();
  }

  /** Events at or before this time (store milliseconds) are too old to keep. */
  public long eventsExpiredAt(long now) {
    return now - settings.eventsMaxAge().toMillis();
  }

  /** Forgets events held in memory; a store calls it once they are persisted elsewhere. */
  public void clearEvents() {
    events.clear();
  }

  private static Instant instant(long millis) {
    return Instant.ofEpochMilli(millis);
  }
}
