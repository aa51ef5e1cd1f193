/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Sluice core: the limiter API ({@code dev.sluice}), the store SPI ({@code dev.sluice.spi}) with
 * what every store may reuse ({@code dev.sluice.spi.support}), and the in-memory reference store
 * ({@code dev.sluice.memory}), and HTTP calls through a limiter ({@code dev.sluice.http}). The
 * limiter runtime in {@code dev.sluice.internal} is not exported.
 */
module dev.sluice {
  // Optional: logs go through SLF4J when the application has it (see dev.sluice.spi.support.Logs).
  requires static org.slf4j;
  requires transitive java.net.http;

  exports dev.sluice;
  exports dev.sluice.spi;
  exports dev.sluice.spi.support;
  exports dev.sluice.memory;
  exports dev.sluice.http;
}
