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
 * open-addressing table (linear probing, deletion by backward shift) maps an id to its place. The
 * array is compacted when an addition finds it full, which also drops the gaps.
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
   * The probe table: an id and its place in {@link #order}, or {@link #EMPTY}; at most half full.
   */
  private long[] ids = new long[MIN_CAPACITY * 2];

  private int[] places = filled(MIN_CAPACITY * 2);

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
    return slot < 0 ? null : at(places[slot]);
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
    int place = places[slot];
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

  private int find(long id) {
    int mask = ids.length - 1;
    for (int slot = home(id, mask); places[slot] != EMPTY; slot = (slot + 1) & mask) {
      if (ids[slot] == id) {
        return slot;
      }
    }
    return -1;
  }

  private void insert(long id, int place) {
    int mask = ids.length - 1;
    int slot = home(id, mask);
    while (places[slot] != EMPTY) {
      slot = (slot + 1) & mask;
    }
    ids[slot] = id;
    places[slot] = place;
  }

  /** Empties {@code slot}, moving back later entries of its run that may not stay behind a gap. */
  private void delete(int slot) {
    int mask = ids.length - 1;
    int gap = slot;
    for (int j = (gap + 1) & mask; places[j] != EMPTY; j = (j + 1) & mask) {
      int home = home(ids[j], mask);
      // The entry at j may stay only if its home lies cyclically in (gap, j].
      boolean stays = gap <= j ? gap < home && home <= j : gap < home || home <= j;
      if (!stays) {
        ids[gap] = ids[j];
        places[gap] = places[j];
        gap = j;
      }
    }
    places[gap] = EMPTY;
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
      Arrays.fill(places, EMPTY);
    } else {
      order = next;
      ids = new long[capacity * 2];
      places = filled(capacity * 2);
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

  private static int[] filled(int length) {
    int[] a = new int[length];
    Arrays.fill(a, EMPTY);
    return a;
  }
}
