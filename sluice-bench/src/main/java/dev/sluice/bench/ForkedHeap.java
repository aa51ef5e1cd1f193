/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench;

/**
 * The heap every JMH fork runs with, added to each benchmark's {@code @Fork}: one gigabyte, fixed,
 * and touched before the first iteration.
 *
 * <p>Why: the machines these numbers come from reclaim memory pages a process has not touched for a
 * while (the kernel's DAMON reclaim was on). With the JVM's default heap, young collections move
 * through address ranges that grow and shrink, and a row that allocates pays page faults on pages
 * reclaimed since it last used them. That cost grows with the bytes a row allocates and swings from
 * run to run: an operation id measured 16.8 ± 4.2 ns on a fixed, touched heap against 414 ± 156 ns
 * on the default one, in the same sitting. A fixed heap touched up front keeps every row's pages
 * resident, so rows that allocate more are no longer also charged for the machine's reclaim.
 *
 * <p>Holds constants only.
 */
final class ForkedHeap {
  /** The initial heap, the same as the maximum, so the heap never grows or shrinks. */
  static final String INITIAL = "-Xms1g";

  /** The maximum heap. */
  static final String MAX = "-Xmx1g";

  /** Touches every page of the heap at start-up, before any measurement. */
  static final String PRE_TOUCH = "-XX:+AlwaysPreTouch";

  private ForkedHeap() {}
}
