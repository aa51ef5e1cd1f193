/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.micrometer;

import dev.sluice.gate.GateEvent;
import dev.sluice.gate.PoolStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * Micrometer meters for the job gate ({@code sluice run}, the agent verbs), every one tagged {@code
 * pool=<name>}, fed with what {@link dev.sluice.gate.GateService#status()} and {@link
 * dev.sluice.gate.GateService#awaitEvents} return (as {@code sluice serve} does for its {@code
 * /metrics}):
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>Name</th><th>Type</th><th>What</th></tr>
 *   <tr><td>{@code sluice.gate.capacity}</td><td>gauge</td><td>the pool's capacity</td></tr>
 *   <tr><td>{@code sluice.gate.used}</td><td>gauge</td><td>weight held or offered</td></tr>
 *   <tr><td>{@code sluice.gate.holders}</td><td>gauge</td><td>held permits</td></tr>
 *   <tr><td>{@code sluice.gate.queue.length}</td><td>gauge</td><td>queued requests</td></tr>
 *   <tr><td>{@code sluice.gate.wait}</td><td>timer</td>
 *       <td>from {@code queued} to {@code offered} or {@code granted}, by the store's clock
 *       (zero for a request granted at once)</td></tr>
 *   <tr><td>{@code sluice.gate.runs}</td><td>counter</td>
 *       <td>permits and requests that ended, by {@code outcome}: {@code succeeded} (the command
 *       exited 0), {@code failed} (it exited with another status), {@code killed} (by a signal),
 *       {@code released} (any other release), {@code cancelled}, {@code reclaimed}</td></tr>
 * </table>
 *
 * A pool's gauges are registered when {@link #update} first shows it, and read NaN once it is gone.
 * Counters and the timer count the events given to {@link #update}, each once.
 *
 * <pre>{@code
 * GateMetrics metrics = new GateMetrics();
 * metrics.bindTo(registry);
 * metrics.update(gate.status(), gate.awaitEvents(last, 1000, Duration.ofMinutes(1)));
 * }</pre>
 *
 * <p>Thread-safe; nothing blocks.
 */
public final class GateMetrics implements MeterBinder {
  /** Queued requests remembered at most, so a wait whose end was never seen cannot grow the map. */
  private static final int MAX_QUEUED = 100_000;

  private final Map<String, PoolStatus> pools = new LinkedHashMap<>();
  private final List<MeterRegistry> registries = new ArrayList<>();
  private final Map<String, Boolean> registered = new HashMap<>();
  private final Map<String, java.time.Instant> queuedAt = new HashMap<>();
  private long lastSequence = -1;

  /** Meters with no pool yet; {@link #update} brings them. */
  public GateMetrics() {}

  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    registries.add(registry);
    for (String pool : registered.keySet()) {
      register(registry, pool);
    }
  }

  /**
   * Takes the pools as they are now and the events since the last call (an event seen before, by
   * its sequence, is not counted again).
   *
   * @param status every pool, as {@link dev.sluice.gate.GateService#status()} returns them
   * @param events new events, oldest first
   */
  public synchronized void update(List<PoolStatus> status, List<GateEvent> events) {
    pools.clear();
    for (PoolStatus p : status) {
      pools.put(p.name(), p);
      if (registered.putIfAbsent(p.name(), true) == null) {
        registries.forEach(r -> register(r, p.name()));
      }
    }
    for (GateEvent e : events) {
      if (e.sequence() > lastSequence) {
        lastSequence = e.sequence();
        count(e);
      }
    }
  }

  private void count(GateEvent e) {
    if (registered.putIfAbsent(e.pool(), true) == null) {
      registries.forEach(r -> register(r, e.pool()));
    }
    switch (e.type()) {
      case "queued" -> {
        if (queuedAt.size() < MAX_QUEUED) {
          queuedAt.put(e.requestId(), e.at());
        }
      }
      case "granted", "offered" -> {
        java.time.Instant since = queuedAt.remove(e.requestId());
        Duration waited = since == null ? Duration.ZERO : Duration.between(since, e.at());
        if (since != null || e.type().equals("granted")) {
          registries.forEach(
              r -> wait(r, e.pool()).record(waited.isNegative() ? Duration.ZERO : waited));
        }
      }
      case "released" -> runs(e.pool(), released(e.detail()));
      case "cancelled" -> {
        queuedAt.remove(e.requestId());
        runs(e.pool(), "cancelled");
      }
      case "reclaimed" -> {
        queuedAt.remove(e.requestId());
        runs(e.pool(), "reclaimed");
      }
      default -> {
        // Claims, starts, capacity changes...: the gauges show the state.
      }
    }
  }

  /** The outcome of a release, from the reason {@code sluice run} records. */
  static String released(String detail) {
    if (detail.equals("exited 0")) {
      return "succeeded";
    }
    if (detail.matches("exited \\d+")) {
      return "failed";
    }
    return detail.startsWith("killed by signal") ? "killed" : "released";
  }

  private void runs(String pool, String outcome) {
    for (MeterRegistry r : registries) {
      Counter.builder("sluice.gate.runs")
          .description("permits and requests that ended, by outcome")
          .tags(Tags.of("pool", pool, "outcome", outcome))
          .register(r)
          .increment();
    }
  }

  private static Timer wait(MeterRegistry r, String pool) {
    return Timer.builder("sluice.gate.wait")
        .description("wait from queued to offered or granted")
        .tags("pool", pool)
        .register(r);
  }

  private void register(MeterRegistry r, String pool) {
    gauge(r, pool, "sluice.gate.capacity", "the pool's capacity", PoolStatus::capacity);
    gauge(r, pool, "sluice.gate.used", "weight held or offered", PoolStatus::used);
    gauge(r, pool, "sluice.gate.holders", "held permits", p -> p.holders().size());
    gauge(r, pool, "sluice.gate.queue.length", "queued requests", p -> p.queued().size());
    wait(r, pool);
  }

  private void gauge(
      MeterRegistry r,
      String pool,
      String name,
      String description,
      ToDoubleFunction<PoolStatus> f) {
    Gauge.builder(name, this, m -> m.read(pool, f))
        .description(description)
        .tags("pool", pool)
        .strongReference(true)
        .register(r);
  }

  private synchronized double read(String pool, ToDoubleFunction<PoolStatus> f) {
    PoolStatus p = pools.get(pool);
    return p == null ? Double.NaN : f.applyAsDouble(p);
  }
}
