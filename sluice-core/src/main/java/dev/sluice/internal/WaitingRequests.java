/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The requests of this JVM that wait for the store's answer, found by their reference.
 *
 * <p>References are handed out in sequence and most requests are answered within a few hundred
 * later ones, so each request takes the slot of a small ring that its reference selects, with one
 * compare-and-set and no allocation; a request whose slot is still taken by an older one goes to an
 * overflow map. A concurrent hash map alone costs a node per request and contended bins when eight
 * callers register at once.
 *
 * <p>Thread-safe and non-blocking. A request is in the ring or in the overflow map, never in both.
 */
final class WaitingRequests {
  /** Sixteen slots of compressed references fill one cache line; 16 lines in all. */
  private static final int SLOTS_PER_LINE = 16;

  private static final int LINE_BITS = 4;
  private static final int LINES = 1 << LINE_BITS;
  private static final int SLOTS = SLOTS_PER_LINE * LINES;
  private final AtomicReferenceArray<Ticket> ring = new AtomicReferenceArray<>(SLOTS);
  private final ConcurrentHashMap<Long, Ticket> overflow = new ConcurrentHashMap<>();

  /**
   * Consecutive references take slots on different cache lines: the callers that register at once
   * hold consecutive references, and slots on one line would make their compare-and-sets contend
   * for it (measured with eight callers on two cores: a twentieth of the time).
   */
  private static int slot(long ref) {
    int line = (int) (ref & (LINES - 1));
    int within = (int) ((ref >>> LINE_BITS) & (SLOTS_PER_LINE - 1));
    return line * SLOTS_PER_LINE + within;
  }

  void add(Ticket t) {
    if (!ring.compareAndSet(slot(t.ref), null, t)) {
      overflow.put(t.ref, t);
    }
  }

  /** Removes and returns the request with this reference, or {@code null} if none waits. */
  Ticket take(long ref) {
    int i = slot(ref);
    Ticket held = ring.get(i);
    if (held != null && held.ref == ref) {
      return ring.compareAndSet(i, held, null) ? held : null;
    }
    return overflow.isEmpty() ? null : overflow.remove(ref);
  }

  /** Removes this very request if it still waits. */
  void remove(Ticket t) {
    if (!ring.compareAndSet(slot(t.ref), t, null) && !overflow.isEmpty()) {
      overflow.remove(t.ref, t);
    }
  }

  boolean isEmpty() {
    if (!overflow.isEmpty()) {
      return false;
    }
    for (int i = 0; i < SLOTS; i++) {
      if (ring.get(i) != null) {
        return false;
      }
    }
    return true;
  }

  /** A snapshot of the waiting requests, in no particular order. */
  List<Ticket> snapshot() {
    List<Ticket> all = new ArrayList<>(overflow.values());
    for (int i = 0; i < SLOTS; i++) {
      Ticket t = ring.get(i);
      if (t != null) {
        all.add(t);
      }
    }
    return all;
  }
}
