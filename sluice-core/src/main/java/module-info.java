/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Sluice core: the limiter API ({@code dev.sluice}), the store SPI ({@code dev.sluice.spi}) and the
 * in-memory reference store ({@code dev.sluice.memory}). The limiter algorithm and runtime in
 * {@code dev.sluice.internal} are not exported.
 */
module dev.sluice {
  exports dev.sluice;
  exports dev.sluice.spi;
  exports dev.sluice.memory;
}
