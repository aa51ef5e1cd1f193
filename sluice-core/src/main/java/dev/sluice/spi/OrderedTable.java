/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import java.util.AbstractCollection;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.BiPredicate;

/**
 * Records in the order they were added, found by a key: what a {@code LinkedHashMap} keeps, without
 * a boxed key and an entry object per record. A pool's leases, waiters and operation records live
 * in these tables, and every call adds and removes one of each kind, so they sit on the path of
 * every call, under the store's lock.
 *
 * <p>Records lie in an array in insertion order, with a gap where one was removed; an
 * open-addressing table (linear probing, deletion by backward shift) maps a record's probe key to
 * its place, the two side by side in one array, so that finding a record reads one cache line of
 * the table: a pool's commands run on every caller's core in turn, and each line written is one the
 * next caller's core must fetch. The array is compacted when an addition finds it full, which also
 * drops the gaps.
 *
 * <p>A subclass gives each record its probe key: {@link IdTable} the record's id, which is unique,
 * so a matching key is the record; {@link NameTable} a name's hash, which two names may share, so a
 * matching key is checked against the record's name.
 *
 * <p>Not thread-safe: part of {@link PoolState}. Its iterator fails fast on an addition or a
 * removal made other than through it.
 *
 * @param <R> the record type
 */
abstract class OrderedTable<R> extends AbstractCollection<R> {
  private static final int EMPTY = -1;
  private static final int MIN_CAPACITY = 8;

  /**
   * The records in insertion order, {@code null} where one was removed; live ones in [head, tail).
   */
  private Object[] order = new Object[MIN_CAPACITY];

  private int head;
  private int tail;
  private int size;
  private int modCount;

  /**
   * The probe table: per slot a probe key and its place in {@link #order} (or {@link #EMPTY}), side
   * by side; at most half its slots are taken.
   */
  private long[] probe = emptyProbe(MIN_CAPACITY * 2);

  /** The record's probe key. */
  abstract long keyOf(R record);

  /**
   * The record's name, compared where probe keys match; {@code null} for a table whose keys are
   * unique, which never compares.
   */
  abstract Object nameOf(R record);

  @Override
  public final int size() {
    return size;
  }

  /** The record of this key (and name), or {@code null}. */
  final R find(long key, Object name) {
    int slot = slotOf(key, name);
    return slot < 0 ? null : at(place(slot));
  }

  /** The record added first of those present, or {@code null}. */
  final R first() {
    return size == 0 ? null : at(head);
  }

  /** Adds a record unless one with its key (and name) is present; returns whether it was added. */
  final boolean addIfAbsent(R record) {
    long key = keyOf(record);
    if (slotOf(key, nameOf(record)) >= 0) {
      return false;
    }
    if (tail == order.length) {
      rebuild(Math.max(MIN_CAPACITY, Integer.highestOneBit(size + 1) * 4));
    }
    order[tail] = record;
    insert(key, tail);
    tail++;
    size++;
    modCount++;
    return true;
  }

  /**
   * Puts {@code record} in the place of the one with its key (and name), which stays where it was
   * in the order; returns the one it replaced, or {@code null} (and adds nothing) if none was
   * there.
   */
  final R replace(R record) {
    int slot = slotOf(keyOf(record), nameOf(record));
    if (slot < 0) {
      return null;
    }
    int place = place(slot);
    R old = at(place);
    order[place] = record;
    return old;
  }

  /** Removes and returns the record of this key (and name), or returns {@code null}. */
  final R take(long key, Object name) {
    int slot = slotOf(key, name);
    return slot < 0 ? null : takeSlot(slot);
  }

  /**
   * Removes and returns the record of this key (and name) if {@code gone} holds for it and {@code
   * argument}, or returns {@code null}: a look and a removal in one probe.
   */
  final <A> R takeIf(long key, Object name, BiPredicate<? super R, A> gone, A argument) {
    int slot = slotOf(key, name);
    return slot < 0 || !gone.test(at(place(slot)), argument) ? null : takeSlot(slot);
  }

  private R takeSlot(int slot) {
    int place = place(slot);
    R record = at(place);
    order[place] = null;
    delete(slot);
    size--;
    modCount++;
    if (size == 0) {
      head = 0;
      tail = 0;
    } else if (place == head) {
      while (order[head] == null) {
        head++;
      }
    }
    return record;
  }

  /** Removes every record. */
  @Override
  public final void clear() {
    Arrays.fill(order, null);
    clearProbe(probe);
    head = 0;
    tail = 0;
    size = 0;
    modCount++;
  }

  @Override
  public final Iterator<R> iterator() {
    return new Iterator<>() {
      private int next = advance(head);
      private int last = EMPTY;
      private int expected = modCount;

      private int advance(int from) {
        int i = from;
        while (i < tail && order[i] == null) {
          i++;
        }
        return i;
      }

      @Override
      public boolean hasNext() {
        return next < tail;
      }

      @Override
      public R next() {
        if (expected != modCount) {
          throw new ConcurrentModificationException();
        }
        if (next >= tail) {
          throw new NoSuchElementException();
        }
        last = next;
        next = advance(next + 1);
        return at(last);
      }

      @Override
      public void remove() {
        if (last == EMPTY) {
          throw new IllegalStateException();
        }
        if (expected != modCount) {
          throw new ConcurrentModificationException();
        }
        R record = at(last);
        take(keyOf(record), nameOf(record));
        last = EMPTY;
        expected = modCount;
        // A removal never moves a record, but it may move the head past the next one's gap.
        next = advance(Math.max(next, head));
      }
    };
  }

  @SuppressWarnings("unchecked")
  private R at(int place) {
    return (R) order[place];
  }

  private int slots() {
    return probe.length >> 1;
  }

  private long key(int slot) {
    return probe[slot << 1];
  }

  private int place(int slot) {
    return (int) probe[(slot << 1) + 1];
  }

  private void set(int slot, long key, int place) {
    probe[slot << 1] = key;
    probe[(slot << 1) + 1] = place;
  }

  private int slotOf(long key, Object name) {
    int mask = slots() - 1;
    for (int slot = home(key, mask); place(slot) != EMPTY; slot = (slot + 1) & mask) {
      if (key(slot) == key && (name == null || sameName(nameOf(at(place(slot))), name))) {
        return slot;
      }
    }
    return -1;
  }

  private void insert(long key, int place) {
    int mask = slots() - 1;
    int slot = home(key, mask);
    while (place(slot) != EMPTY) {
      slot = (slot + 1) & mask;
    }
    set(slot, key, place);
  }

  /** Empties {@code slot}, moving back later entries of its run that may not stay behind a gap. */
  private void delete(int slot) {
    int mask = slots() - 1;
    int gap = slot;
    for (int j = (gap + 1) & mask; place(j) != EMPTY; j = (j + 1) & mask) {
      int home = home(key(j), mask);
      // The entry at j may stay only if its home lies cyclically in (gap, j].
      boolean stays = gap <= j ? gap < home && home <= j : gap < home || home <= j;
      if (!stays) {
        set(gap, key(j), place(j));
        gap = j;
      }
    }
    set(gap, 0, EMPTY);
  }

  /**
   * Lays the records out from the start of the array, dropping the gaps, and the probe table anew;
   * in new arrays of {@code capacity} (the probe table twice that) if the present ones are smaller,
   * else in place, so that a table whose size holds steady allocates nothing.
   */
  private void rebuild(int capacity) {
    Object[] next = capacity > order.length ? new Object[capacity] : order;
    int n = 0;
    for (int i = head; i < tail; i++) {
      if (order[i] != null) {
        next[n++] = order[i];
      }
    }
    if (next == order) {
      Arrays.fill(order, n, tail, null);
      clearProbe(probe);
    } else {
      order = next;
      probe = emptyProbe(capacity * 2);
    }
    head = 0;
    tail = n;
    for (int i = 0; i < n; i++) {
      insert(keyOf(at(i)), i);
    }
  }

  private static boolean sameName(Object mine, Object sought) {
    // By identity first: a command usually carries the very string the table holds.
    return mine == sought || mine.equals(sought);
  }

  private static int home(long key, int mask) {
    // Ids are consecutive and hashes may share low bits: a multiplicative hash spreads both.
    return (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
  }

  private static long[] emptyProbe(int slots) {
    long[] a = new long[slots * 2];
    clearProbe(a);
    return a;
  }

  private static void clearProbe(long[] probe) {
    for (int i = 1; i < probe.length; i += 2) {
      probe[i] = EMPTY;
    }
  }
}
