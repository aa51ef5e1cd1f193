/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.GateService;
import dev.sluice.gate.GateSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link GateMetrics} fed from a real gate on a real SQLite home, read from a registry. */
class GateMetricsTest {
  @TempDir Path home;

  private static AcquireRequest request(String agent, String pool, int weight) {
    return new AcquireRequest(agent, "op", pool, weight, "label " + agent, "");
  }

  @Test
  void gaugesShowThePoolsAndCountersTheEndsAndWaitsOfItsEvents() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    GateMetrics metrics = new GateMetrics();
    metrics.bindTo(registry);
    try (GateService gate =
        GateService.open(home, GateSettings.builder().defaultCapacity(1).build())) {
      gate.setCapacity("builds", 1, "test", "");
      AcquireOutcome first = gate.acquire(request("a", "builds", 1));
      gate.acquire(request("b", "builds", 1));
      metrics.update(gate.status(), gate.events(0, 1000));

      assertThat(registry.get("sluice.gate.capacity").tag("pool", "builds").gauge().value())
          .isEqualTo(1);
      assertThat(registry.get("sluice.gate.used").tag("pool", "builds").gauge().value())
          .isEqualTo(1);
      assertThat(registry.get("sluice.gate.holders").tag("pool", "builds").gauge().value())
          .isEqualTo(1);
      assertThat(registry.get("sluice.gate.queue.length").tag("pool", "builds").gauge().value())
          .isEqualTo(1);
      assertThat(registry.get("sluice.gate.wait").tag("pool", "builds").timer().count())
          .isEqualTo(1);

      gate.release(((AcquireOutcome.Granted) first).permitToken(), "exited 0");
      metrics.update(gate.status(), gate.events(0, 1000));

      assertThat(
              registry
                  .get("sluice.gate.runs")
                  .tags("pool", "builds", "outcome", "succeeded")
                  .counter()
                  .count())
          .isEqualTo(1);
      assertThat(registry.get("sluice.gate.wait").tag("pool", "builds").timer().count())
          .as("the queued request's wait ended with its offer")
          .isEqualTo(2);
      assertThat(registry.get("sluice.gate.queue.length").tag("pool", "builds").gauge().value())
          .isZero();
    }
  }

  @Test
  void aReleaseIsClassifiedByTheReasonSluiceRunRecords() {
    assertThat(GateMetrics.released("exited 0")).isEqualTo("succeeded");
    assertThat(GateMetrics.released("exited 3")).isEqualTo("failed");
    assertThat(GateMetrics.released("killed by signal 9")).isEqualTo("killed");
    assertThat(GateMetrics.released("process_exited")).isEqualTo("released");
  }
}
