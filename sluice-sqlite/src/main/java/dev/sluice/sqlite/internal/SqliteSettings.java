/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import dev.sluice.LimiterConfig;
import dev.sluice.TimeSource;
import dev.sluice.local.PoolDirectory;

/**
 * What a session needs to open a pool.
 *
 * @param directory the checked pool directory
 * @param config the configuration every user must share
 * @param clock the store's clock
 * @param traceCapacity trace entries kept when the pool is created
 * @param fullSync {@code synchronous=FULL} instead of {@code NORMAL}
 */
public record SqliteSettings(
    PoolDirectory directory,
    LimiterConfig config,
    TimeSource clock,
    int traceCapacity,
    boolean fullSync) {}
