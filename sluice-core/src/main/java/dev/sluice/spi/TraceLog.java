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
 * kept as primitives so that recording one on the admission path allocates nothing.
 *
 * <p>Not thread-safe: part of {@link PoolState}.
 */
public final class TraceLog {
  private static final TraceEvent.Kind[] KINDS = TraceEvent.Kind.values();

  private final int capacity;
  private final byte[] kinds;
  private final long[] leaseIds;
  private final String[] owners;
  private final long[] actives;
  private final long[] ats;
  private long nextSequence;
  private int size;

  TraceLog(int capacity, long nextSequence) {
    if (capacity < 0) {
      throw new IllegalArgumentException(
          "traceCapacity must not be negative (allowed 0.."
              + Integer.MAX_VALUE
              + "), was "
              + capacity);
    }
    this.capacity = capacity;
    this.kinds = new byte[capacity];
    this.leaseIds = new long[capacity];
    this.owners = new String[capacity];
    this.actives = new long[capacity];
    this.ats = new long[capacity];
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
    int slot = (int) (nextSequence % capacity);
    kinds[slot] = (byte) kind.ordinal();
    leaseIds[slot] = leaseId;
    owners[slot] = owner;
    actives[slot] = activeWeight;
    ats[slot] = at;
    nextSequence++;
    size = Math.min(size + 1, capacity);
  }

  /**
   * Whether a kept entry of {@code kind} names {@code leaseId}; entries that fell out of the log
   * are not found.
   */
  public boolean contains(TraceEvent.Kind kind, long leaseId) {
    for (long seq = nextSequence - size; seq < nextSequence; seq++) {
      int slot = (int) (seq % capacity);
      if (leaseIds[slot] == leaseId && kinds[slot] == (byte) kind.ordinal()) {
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
    int slot = (int) (seq % capacity);
    return new TraceEvent(
        seq,
        KINDS[kinds[slot]],
        leaseIds[slot],
        owners[slot],
        actives[slot],
        Instant.ofEpochMilli(ats[slot]));
  }
}
