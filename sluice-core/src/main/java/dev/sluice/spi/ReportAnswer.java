/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

/**
 * What {@link PoolCommand.Report} did.
 *
 * @param released whether the lease was still the issuer's and is now released; if not, nothing
 *     changed (a late or repeated report, or a lease that expired or was reclaimed)
 * @param counted whether the outcome changed the cooldown or the breaker; a stale report (of an
 *     attempt admitted before the current cooldown or breaker epoch, or of a replaced probe) counts
 *     only as far as its retry-after extends the cooldown
 */
public record ReportAnswer(boolean released, boolean counted) {}
