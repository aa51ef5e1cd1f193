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
import java.util.function.ToLongFunction;

/**
 * A pool's leases or waiters by id, in the order they were added: what a {@code LinkedHashMap<Long,
 * R>} would keep, without a boxed key and an entry object per record. Every admission adds a lease
 * and every release removes one, so this sits on the path of every call.
 *
 * <p>Records lie in an array in insertion order, with a gap where one was removed; an
 * open-addressing table (linear probing, deletion by backward shift) maps an id to its place, the
 * two side by side in one array, so that finding a record reads one cache line of the table: a
 * pool's commands run on every caller's core in turn, and each line written is one the next
 * caller's core must fetch. The array is compacted when an addition finds it full, which also drops
 * the gaps.
 *
 * <p>Not thread-safe: part of {@link PoolState}. Its iterator fails fast on an addition or a
 * removal made other than through it.
 *
 * @param <R> the record type
 */
final class IdTable<R> extends AbstractCollection<R> {
  private static final int EMPTY = -1;
  private static final int MIN_CAPACITY = 8;

  private final ToLongFunction<R> idOf;

  /**
   * The records in insertion order, {@code null} where one was removed; live ones in [head, tail).
   */
  private Object[] order = new Object[MIN_CAPACITY];

  private int head;
  private int tail;
  private int size;
  private int modCount;

  /**
   * The probe table: per slot an id and its place in {@link #order} (or {@link #EMPTY}), side by
   * side; at most half its slots are taken.
   */
  private long[] probe = emptyProbe(MIN_CAPACITY * 2);

  IdTable(ToLongFunction<R> idOf) {
    this.idOf = idOf;
  }

  @Override
  public int size() {
    return size;
  }

  /** The record with this id, or {@code null}. */
  R get(long id) {
    int slot = find(id);
    return slot < 0 ? null : at(place(slot));
  }

  /** The record added first of those present, or {@code null}. */
  R first() {
    return size == 0 ? null : at(head);
  }

  /** Adds a record unless one with its id is present; returns whether it was added. */
  boolean addIfAbsent(R record) {
    long id = idOf.applyAsLong(record);
    if (find(id) >= 0) {
      return false;
    }
    if (tail == order.length) {
      rebuild(Math.max(MIN_CAPACITY, Integer.highestOneBit(size + 1) * 4));
    }
    order[tail] = record;
    insert(id, tail);
    tail++;
    size++;
    modCount++;
    return true;
  }

  /** Removes and returns the record with this id, or returns {@code null}. */
  R remove(long id) {
    int slot = find(id);
    if (slot < 0) {
      return null;
    }
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

  @Override
  public Iterator<R> iterator() {
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
        IdTable.this.remove(idOf.applyAsLong(at(last)));
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

  private long id(int slot) {
    return probe[slot << 1];
  }

  private int place(int slot) {
    return (int) probe[(slot << 1) + 1];
  }

  private void set(int slot, long id, int place) {
    probe[slot << 1] = id;
    probe[(slot << 1) + 1] = place;
  }

  private int find(long id) {
    int mask = slots() - 1;
    for (int slot = home(id, mask); place(slot) != EMPTY; slot = (slot + 1) & mask) {
      if (id(slot) == id) {
        return slot;
      }
    }
    return -1;
  }

  private void insert(long id, int place) {
    int mask = slots() - 1;
    int slot = home(id, mask);
    while (place(slot) != EMPTY) {
      slot = (slot + 1) & mask;
    }
    set(slot, id, place);
  }

  /** Empties {@code slot}, moving back later entries of its run that may not stay behind a gap. */
  private void delete(int slot) {
    int mask = slots() - 1;
    int gap = slot;
    for (int j = (gap + 1) & mask; place(j) != EMPTY; j = (j + 1) & mask) {
      int home = home(id(j), mask);
      // The entry at j may stay only if its home lies cyclically in (gap, j].
      boolean stays = gap <= j ? gap < home && home <= j : gap < home || home <= j;
      if (!stays) {
        set(gap, id(j), place(j));
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
      clear(probe);
    } else {
      order = next;
      probe = emptyProbe(capacity * 2);
    }
    head = 0;
    tail = n;
    for (int i = 0; i < n; i++) {
      insert(idOf.applyAsLong(at(i)), i);
    }
  }

  private static int home(long id, int mask) {
    // Ids are consecutive: a multiplicative hash spreads them over the table.
    return (int) ((id * 0x9E3779B97F4A7C15L) >>> 40) & mask;
  }

  private static long[] emptyProbe(int slots) {
    long[] a = new long[slots * 2];
    clear(a);
    return a;
  }

  private static void clear(long[] probe) {
    for (int i = 1; i < probe.length; i += 2) {
      probe[i] = EMPTY;
    }
  }
}
