/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.gate;

/**
 * A {@code main} that does nothing: the floor of a JVM command. {@link GateCommandBench} copies
 * this one class file into a directory of its own and launches it with bin/sluice's java and JVM
 * options, so the floor loads no jar and no SQLite.
 */
public final class TrivialMain {
  private TrivialMain() {}

  /**
   * Returns at once.
   *
   * @param args ignored
   */
  public static void main(String[] args) {}
}
