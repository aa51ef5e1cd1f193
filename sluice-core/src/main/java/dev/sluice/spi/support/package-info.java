/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * What every store may reuse, so that a new store is small and behaves as the others do: the
 * versioned binary codec of a pool's state ({@link dev.sluice.spi.support.PoolStateCodec}) with its
 * decoded form ({@link dev.sluice.spi.support.StoredPoolState}) and the in-place refresh of a
 * cached copy ({@link dev.sluice.spi.support.PoolStateRefresh}); the one group-commit coordinator
 * ({@link dev.sluice.spi.support.GroupCommitter}); the counted signal waiters sleep on ({@link
 * dev.sluice.spi.support.ChangeCounter}); and the one check of a recorded format id ({@link
 * dev.sluice.spi.support.FormatCheck}).
 */
package dev.sluice.spi.support;
