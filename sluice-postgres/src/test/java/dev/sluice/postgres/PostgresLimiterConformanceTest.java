/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import dev.sluice.testkit.LimiterConformanceSuite;
import dev.sluice.testkit.StoreFactory;
import org.junit.jupiter.api.AfterAll;

/**
 * The PostgreSQL store runs the whole conformance suite, unchanged, against the real server, in a
 * schema of its own that is dropped afterwards, on the suite's clock (the store's client clock).
 */
class PostgresLimiterConformanceTest extends LimiterConformanceSuite {
  private static final TestDatabase DB = TestDatabase.create();

  @AfterAll
  static void dropSchema() throws Exception {
    DB.close();
  }

  @Override
  protected StoreFactory stores() {
    return (name, clock) -> DB.store(name).clientClock(clock).build();
  }
}
