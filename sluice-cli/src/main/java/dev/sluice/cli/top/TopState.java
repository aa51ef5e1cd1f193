/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import dev.sluice.gate.PoolStatus;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * What one frame of {@code sluice top} shows: the gate as last read.
 *
 * @param home the gate's home, for the title
 * @param pools every pool
 * @param events the latest events, oldest first
 * @param readAt when the pools were read: the title's "as of"
 */
record TopState(Path home, List<PoolStatus> pools, List<FeedEvent> events, Instant readAt) {
  /** Copies the lists. */
  TopState {
    pools = List.copyOf(pools);
    events = List.copyOf(events);
  }
}
