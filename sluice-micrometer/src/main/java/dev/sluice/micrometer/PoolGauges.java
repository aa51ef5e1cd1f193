/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.micrometer;

import dev.sluice.ControlStatus;
import dev.sluice.PoolSnapshot;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** Registers the gauges of a pool's shared state, read through {@link PoolReadings}. Stateless. */
final class PoolGauges {
  private PoolGauges() {}

  static void register(MeterRegistry registry, Tags tags, PoolReadings r) {
    snapshot(
        registry,
        tags,
        r,
        "sluice.limiter.capacity",
        "the pool's maxConcurrent, NaN when unlimited",
        s -> s.config().maxConcurrent().isPresent() ? s.config().maxConcurrentRaw() : Double.NaN);
    snapshot(
        registry,
        tags,
        r,
        "sluice.limiter.active.weight",
        "weight held by live leases",
        PoolSnapshot::activeWeight);
    snapshot(registry, tags, r, "sluice.limiter.leases", "live leases", s -> s.leases().size());
    snapshot(
        registry,
        tags,
        r,
        "sluice.limiter.queue.length",
        "queued requests",
        s -> s.waiters().size());
    snapshot(
        registry,
        tags,
        r,
        "sluice.limiter.reservoir",
        "tokens left, NaN when unlimited",
        s -> s.reservoir().isPresent() ? s.reservoir().getAsLong() : Double.NaN);
    control(
        registry,
        tags,
        r,
        "sluice.limiter.cooldown.active",
        "1 while the shared cooldown pauses admissions",
        c -> c.cooldownUntil().isPresent() ? 1 : 0);
    for (ControlStatus.Circuit state : ControlStatus.Circuit.values()) {
      control(
          registry,
          tags.and("state", state.name().toLowerCase(Locale.ROOT)),
          r,
          "sluice.limiter.circuit.state",
          "1 for the circuit breaker's current state",
          c -> c.circuit() == state ? 1 : 0);
    }
    control(
        registry,
        tags,
        r,
        "sluice.limiter.drain.generation",
        "the latest drain's generation",
        ControlStatus::generation);
    control(
        registry,
        tags,
        r,
        "sluice.limiter.draining",
        "1 while the pool drains",
        c -> c.draining() ? 1 : 0);
  }

  private static void snapshot(
      MeterRegistry registry,
      Tags tags,
      PoolReadings r,
      String name,
      String description,
      ToDoubleFunction<PoolSnapshot> value) {
    Gauge.builder(
            name,
            r,
            readings -> {
              PoolSnapshot s = readings.snapshot();
              return s == null ? Double.NaN : value.applyAsDouble(s);
            })
        .description(description)
        .tags(tags)
        .strongReference(true)
        .register(registry);
  }

  private static void control(
      MeterRegistry registry,
      Tags tags,
      PoolReadings r,
      String name,
      String description,
      ToDoubleFunction<ControlStatus> value) {
    Gauge.builder(
            name,
            r,
            readings -> {
              ControlStatus c = readings.control();
              return c == null ? Double.NaN : value.applyAsDouble(c);
            })
        .description(description)
        .tags(tags)
        .strongReference(true)
        .register(registry);
  }
}
