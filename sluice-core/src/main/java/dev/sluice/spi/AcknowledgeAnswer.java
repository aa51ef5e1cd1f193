/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import java.util.List;

/**
 * What {@link PoolCommand.Acknowledge} did: nothing for a stale generation or when any id was not
 * an unconfirmed operation; otherwise it acknowledged them all.
 *
 * @param stale the generation was not the latest drain's
 * @param unknown the ids that named no unconfirmed operation
 */
public record AcknowledgeAnswer(boolean stale, List<String> unknown) {
  /** Copies the ids. */
  public AcknowledgeAnswer {
    unknown = List.copyOf(unknown);
  }

  /** Whether the operations were acknowledged. */
  public boolean acknowledged() {
    return !stale && unknown.isEmpty();
  }
}
