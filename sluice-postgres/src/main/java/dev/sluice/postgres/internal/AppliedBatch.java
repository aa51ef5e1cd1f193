/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.spi.PoolState;
import java.util.List;
import java.util.Set;

/**
 * What one batch's transaction did.
 *
 * @param batch the commands it applied (those their callers had not taken back)
 * @param results per command, its outcome or the exception to fail it with
 * @param state the pool's state after it
 * @param version the row's version after it
 * @param lost this JVM's owners the store declared dead
 * @param affected the owners its outcomes concern
 * @param changed whether it changed the state
 * @param txid its transaction id, or 0 if it wrote nothing
 */
record AppliedBatch(
    List<PoolBatches.Op<?>> batch,
    List<Object> results,
    PoolState state,
    long version,
    Set<String> lost,
    Set<String> affected,
    boolean changed,
    long txid) {}
