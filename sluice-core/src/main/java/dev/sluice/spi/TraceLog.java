/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import dev.sluice.TraceEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A pool's bounded diagnostics trace: the most recent entries, oldest dropped first. Entries are
 * kept as primitives so that recording one on the admission path allocates nothing, and an entry's
 * numbers lie side by side in one array, so that recording one writes to two cache lines (the
 * numbers and the owner) rather than one per field: a pool's commands run on every caller's core in
 * turn, and each line written is one the next caller's core must fetch.
 *
 * <p>Not thread-safe: part of {@link PoolState}.
 */
public final class TraceLog {
  private static final TraceEvent.Kind[] KINDS = TraceEvent.Kind.values();

  /** The numbers of an entry: its kind's ordinal, lease id, active weight and time. */
  private static final int WORDS = 4;

  private final int capacity;
  private final long[] words;
  private final String[] owners;
  private long nextSequence;
  private int size;

  /** Where the next entry goes: the slot after the newest. */
  private int nextSlot;

  TraceLog(int capacity, long nextSequence) {
    if (capacity < 0) {
      throw new IllegalArgumentException(
          "traceCapacity must not be negative (allowed 0.."
              + Integer.MAX_VALUE
              + "), was "
              + capacity);
    }
    this.capacity = capacity;
    this.words = new long[Math.multiplyExact(capacity, WORDS)];
    this.owners = new String[capacity];
    this.nextSequence = nextSequence;
  }

  /** The sequence number the next entry will get. */
  public long nextSequence() {
    return nextSequence;
  }

  /**
   * The kept entries with a sequence number of at least {@code sequence}, oldest first: what a
   * store that persists the trace incrementally has not written yet.
   */
  public List<TraceEvent> entriesFrom(long sequence) {
    // Only the asked-for entries are built: a store calls this on every commit for the one or two
    // entries it added, not for the whole log.
    long from = Math.max(sequence, nextSequence - size);
    List<TraceEvent> out = new ArrayList<>((int) Math.max(0, nextSequence - from));
    for (long seq = from; seq < nextSequence; seq++) {
      out.add(entry(seq));
    }
    return out;
  }

  /** How many entries are kept at most. */
  public int capacity() {
    return capacity;
  }

  /**
   * Records an entry.
   *
   * @param kind what happened
   * @param leaseId the lease or entry, or 0
   * @param owner the owner, or an empty string
   * @param activeWeight the held weight after the event
   * @param at store time
   */
  public void add(TraceEvent.Kind kind, long leaseId, String owner, long activeWeight, long at) {
    if (capacity == 0) {
      nextSequence++;
      return;
    }
    int slot = nextSlot;
    int w = slot * WORDS;
    words[w] = kind.ordinal();
    words[w + 1] = leaseId;
    words[w + 2] = activeWeight;
    words[w + 3] = at;
    owners[slot] = owner;
    nextSlot = slot + 1 == capacity ? 0 : slot + 1;
    nextSequence++;
    if (size < capacity) {
      size++;
    }
  }

  /** The slot of kept entry {@code seq}. */
  private int slotOf(long seq) {
    int slot = nextSlot - (int) (nextSequence - seq);
    return slot < 0 ? slot + capacity : slot;
  }

  /**
   * Whether a kept entry of {@code kind} names {@code leaseId}; entries that fell out of the log
   * are not found.
   */
  public boolean contains(TraceEvent.Kind kind, long leaseId) {
    for (long seq = nextSequence - size; seq < nextSequence; seq++) {
      int w = slotOf(seq) * WORDS;
      if (words[w + 1] == leaseId && words[w] == kind.ordinal()) {
        return true;
      }
    }
    return false;
  }

  /** The kept entries, oldest first. */
  public List<TraceEvent> entries() {
    return entriesFrom(nextSequence - size);
  }

  private TraceEvent entry(long seq) {
    int slot = slotOf(seq);
    int w = slot * WORDS;
    return new TraceEvent(
        seq,
        KINDS[(int) words[w]],
        words[w + 1],
        owners[slot],
        words[w + 2],
        Instant.ofEpochMilli(words[w + 3]));
  }
}
