/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

/**
 * What a cell of {@code sluice top} means at a glance, which {@link TopStyles} turns into a colour
 * when the terminal has colours (and into at most bold when it has none).
 */
enum Tone {
  /** Nothing to point out. */
  PLAIN,
  /** Holds capacity: running, claimed, granted. */
  ACTIVE,
  /** Has capacity reserved for a while: offered. */
  OFFERED,
  /** Waits its turn: queued, rejoined. */
  WAITING,
  /** Out of the way: paused, declined, cancelled. */
  IDLE,
  /** Lost or about to be: reclaimed, force-released, signalled, failed, a deadline passed. */
  ALERT
}
