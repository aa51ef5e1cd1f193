/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Sluice core: the limiter API ({@code dev.sluice}), the store SPI ({@code dev.sluice.spi}) with
 * what every store may reuse ({@code dev.sluice.spi.support}), and the in-memory reference store
 * ({@code dev.sluice.memory}). The limiter runtime in {@code dev.sluice.internal} is not exported.
 */
module dev.sluice {
  // Optional: logs go through SLF4J when the application has it (see dev.sluice.spi.support.Logs).
  requires static org.slf4j;

  exports dev.sluice;
  exports dev.sluice.spi;
  exports dev.sluice.spi.support;
  exports dev.sluice.memory;
}
