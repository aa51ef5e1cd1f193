/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * Records by name, in the order they were added: an {@link OrderedTable} whose probe key is the
 * name's {@link String#hashCode()}, which a string computes once and keeps, and whose lookups
 * compare names only where hashes match (by identity first: a command usually carries the very
 * string the table holds). Replaces a {@code LinkedHashMap<String, R>} for a pool's operation
 * records, without an entry object per record.
 *
 * <p>Not thread-safe: part of {@link PoolState}.
 *
 * @param <R> the record type
 */
final class NameTable<R> extends OrderedTable<R> {
  private final Function<R, String> nameOf;

  NameTable(Function<R, String> nameOf) {
    this.nameOf = nameOf;
  }

  /** The record named {@code name}, or {@code null}. */
  R get(String name) {
    return find(name.hashCode(), name);
  }

  /** Adds {@code record}, or puts it in the place of the one of its name, which keeps its place. */
  void put(R record) {
    if (replace(record) == null) {
      addIfAbsent(record);
    }
  }

  /** Removes and returns the record named {@code name}, or returns {@code null}. */
  R remove(String name) {
    return take(name.hashCode(), name);
  }

  /**
   * Removes and returns the record named {@code name} if {@code gone} holds for it and {@code
   * argument}, or returns {@code null}.
   */
  <A> R removeIf(String name, BiPredicate<? super R, A> gone, A argument) {
    return takeIf(name.hashCode(), name, gone, argument);
  }

  @Override
  long keyOf(R record) {
    return nameOf.apply(record).hashCode();
  }

  @Override
  Object nameOf(R record) {
    return nameOf.apply(record);
  }
}
