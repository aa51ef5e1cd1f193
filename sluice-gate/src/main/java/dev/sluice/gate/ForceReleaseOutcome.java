/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.util.Optional;

/**
 * The answer to an operator's {@code force-release}.
 *
 * @param release the release itself (idempotent, as for {@code release})
 * @param runningGroup the permit's tracked process when its group still ran as the slot was freed
 *     (the pool is then over-subscribed until it ends), else {@code null}
 */
public record ForceReleaseOutcome(ReleaseOutcome release, ProcessRef runningGroup) {
  /** The process whose group still ran when the slot was freed, if any. */
  public Optional<ProcessRef> stillRunning() {
    return Optional.ofNullable(runningGroup);
  }
}
