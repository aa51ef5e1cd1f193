/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import java.util.function.BiPredicate;
import java.util.function.ToLongFunction;

/**
 * A pool's leases or waiters by id, in the order they were added: an {@link OrderedTable} whose
 * probe key is the record's id, unique, so a lookup compares ids only.
 *
 * <p>Not thread-safe: part of {@link PoolState}.
 *
 * @param <R> the record type
 */
final class IdTable<R> extends OrderedTable<R> {
  private final ToLongFunction<R> idOf;

  IdTable(ToLongFunction<R> idOf) {
    this.idOf = idOf;
  }

  /** The record with this id, or {@code null}. */
  R get(long id) {
    return find(id, null);
  }

  /** Removes and returns the record with this id, or returns {@code null}. */
  R remove(long id) {
    return take(id, null);
  }

  /**
   * Removes and returns the record with this id if {@code gone} holds for it and {@code argument},
   * or returns {@code null}.
   */
  <A> R removeIf(long id, BiPredicate<? super R, A> gone, A argument) {
    return takeIf(id, null, gone, argument);
  }

  @Override
  long keyOf(R record) {
    return idOf.applyAsLong(record);
  }

  @Override
  Object nameOf(R record) {
    return null;
  }
}
