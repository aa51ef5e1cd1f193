/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import java.util.ArrayDeque;

/** One pool: its capacity and its FIFO queue of request ids. Mutable, owned by its state. */
final class PoolRecord {
  final String name;
  int capacity;
  final ArrayDeque<String> queue = new ArrayDeque<>();

  PoolRecord(String name, int capacity) {
    this.name = name;
    this.capacity = capacity;
  }
}
