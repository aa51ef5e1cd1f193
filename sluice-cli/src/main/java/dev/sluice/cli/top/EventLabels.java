/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateService;
import dev.sluice.gate.PoolStatus;
import dev.sluice.gate.Ticket;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the labels of the requests that events name. Events carry only a request's id; the label
 * comes from the pools just read (live requests) or, for requests that already ended, from one read
 * of all the unknown ids together. Labels never change, so each id is looked up once; the most
 * recently used ids are remembered, at most {@value #REMEMBERED}.
 *
 * <p>Not thread-safe: the feed's thread uses it. {@link #label} blocks for one gate transaction
 * when an id is new.
 */
final class EventLabels {
  static final int REMEMBERED = 4096;

  private final GateService gate;

  private final Map<String, String> known =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
          return size() > REMEMBERED;
        }
      };

  EventLabels(GateService gate) {
    this.gate = gate;
  }

  /** The events with their requests' labels; {@code pools} are the pools read with them. */
  List<FeedEvent> label(List<GateEvent> events, List<PoolStatus> pools) {
    for (PoolStatus p : pools) {
      for (List<Ticket> group : List.of(p.holders(), p.offers(), p.queued(), p.paused())) {
        group.forEach(t -> known.put(t.requestId(), t.label()));
      }
    }
    Set<String> unknown = new LinkedHashSet<>();
    for (GateEvent e : events) {
      if (!e.requestId().isEmpty() && !known.containsKey(e.requestId())) {
        unknown.add(e.requestId());
      }
    }
    if (!unknown.isEmpty()) {
      Map<String, String> found = new LinkedHashMap<>();
      unknown.forEach(id -> found.put(id, ""));
      gate.tickets(unknown).forEach(t -> found.put(t.requestId(), t.label()));
      known.putAll(found);
    }
    return events.stream()
        .map(e -> new FeedEvent(e, known.getOrDefault(e.requestId(), "")))
        .toList();
  }
}
