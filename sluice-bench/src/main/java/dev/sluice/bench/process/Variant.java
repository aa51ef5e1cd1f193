/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.nio.file.Files;
import java.nio.file.Path;

/** The caps under comparison, and where each keeps its state inside a run directory. */
enum Variant {
  /** Sluice's SQLite store: the pool is a directory. */
  SLUICE("Sluice SQLite store", 0),

  /**
   * Sluice's SQLite store with {@code localHandOffs(16)}: a released unit goes to a waiting request
   * of the same process up to 16 times per grant, then back to the pool's global queue.
   */
  SLUICE_HAND_OFFS("Sluice SQLite store, localHandOffs 16", 16),

  /**
   * The same with {@code localHandOffs(64)}: fewer trips of a unit between processes, and a longer
   * wait for a request at the pool behind each grant.
   */
  SLUICE_HAND_OFFS_64("Sluice SQLite store, localHandOffs 64", 64),

  /** {@link NaiveSemaphore}: the semaphore is one database file. */
  NAIVE("naive SQLite semaphore") {
    @Override
    Path prepare(Path parent, String name) throws Exception {
      Path dir = Files.createDirectory(parent.resolve(name));
      Path file = dir.resolve("sem.db");
      NaiveSemaphore.create(file);
      return file;
    }

    @Override
    Contender open(Path location, int cap) {
      return NaiveSemaphore.open(location, cap);
    }
  };

  private final String label;
  private final int handOffs;

  Variant(String label) {
    this(label, 0);
  }

  /** A Sluice variant; {@code handOffs} 0 keeps the strict order. */
  Variant(String label, int handOffs) {
    this.label = label;
    this.handOffs = handOffs;
  }

  /** Returns the name used in the report. */
  String label() {
    return label;
  }

  /**
   * Makes a fresh cap under {@code parent} and returns the location processes open.
   *
   * @param parent the run directory
   * @param name a name unique in the run
   * @return the pool directory or the database file
   * @throws Exception if it cannot be created
   */
  Path prepare(Path parent, String name) throws Exception {
    // The first process to open the pool creates it.
    return parent.resolve(name);
  }

  /**
   * Opens the cap at {@code location} in this process.
   *
   * @param location what {@link #prepare(Path, String)} returned
   * @param cap the number of units
   * @return the contender
   */
  Contender open(Path location, int cap) {
    return handOffs == 0
        ? SluiceContender.open(location, cap)
        : SluiceContender.open(location, cap, handOffs);
  }
}
