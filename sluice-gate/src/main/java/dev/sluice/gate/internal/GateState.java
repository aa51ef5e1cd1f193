/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import dev.sluice.gate.CapacityChange;
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
 * token hashes, the event feed and the capacity history. Transitions in {@link GateMachine} and
 * {@link GateSweeper} change it; a store persists it between transitions.
 *
 * <p>Not thread-safe: a store applies one transition at a time.
 */
public final class GateState {
  final GateSettings settings;
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
   * @param settings timing and retention rules
   */
  public GateState(GateSettings settings) {
    this.settings = settings;
  }

  /** The rules this state follows. */
  public GateSettings settings() {
    return settings;
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
