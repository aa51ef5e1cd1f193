/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.testkit.engine.EngineTestKit;

/** A conformance case that skips fails, unless a platform capability is what it lacks. */
class NoSkippedCasesTest {
  @ExtendWith(NoSkippedCases.class)
  static class Cases {
    @Test
    void skipsForAnotherReason() {
      Assumptions.assumeTrue(false, "the store keeps time on its own clock");
    }

    @Test
    void skipsForAMissingCapability() {
      NoSkippedCases.assumePlatform(false, "inotify");
    }

    @Test
    void runs() {}
  }

  @Test
  void onlyAMissingPlatformCapabilitySkips() {
    EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(Cases.class))
        .execute()
        .testEvents()
        .assertStatistics(stats -> stats.started(3).succeeded(1).failed(1).aborted(1));
  }
}
