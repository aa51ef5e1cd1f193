/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.micrometer;

import dev.sluice.Limiter;
import dev.sluice.LimiterEvent;
import dev.sluice.LimiterListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Micrometer meters for one {@link Limiter}, every one tagged {@code pool=<name>} (plus the tags
 * given to the builder):
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>Name</th><th>Type</th><th>What</th></tr>
 *   <tr><td>{@code sluice.limiter.capacity}</td><td>gauge</td>
 *       <td>the pool's {@code maxConcurrent}; NaN when unlimited</td></tr>
 *   <tr><td>{@code sluice.limiter.active.weight}</td><td>gauge</td>
 *       <td>weight held by live leases, every process's</td></tr>
 *   <tr><td>{@code sluice.limiter.leases}</td><td>gauge</td><td>live leases</td></tr>
 *   <tr><td>{@code sluice.limiter.queue.length}</td><td>gauge</td><td>queued requests</td></tr>
 *   <tr><td>{@code sluice.limiter.reservoir}</td><td>gauge</td>
 *       <td>tokens left after any due refill; NaN when unlimited</td></tr>
 *   <tr><td>{@code sluice.limiter.wait}</td><td>timer</td>
 *       <td>this limiter's waits from request to admission (zero for one admitted at once)</td></tr>
 *   <tr><td>{@code sluice.limiter.admissions}</td><td>counter</td>
 *       <td>this limiter's admissions</td></tr>
 *   <tr><td>{@code sluice.limiter.requests.unstarted}</td><td>counter</td>
 *       <td>requests that ended without starting, by {@code reason}: {@code withdrawn}, {@code
 *       timed_out}, {@code expired} (the lease expired first), {@code owner_lost}</td></tr>
 *   <tr><td>{@code sluice.limiter.attempts}</td><td>counter</td>
 *       <td>managed execution attempts, by {@code outcome}: {@code success}, {@code neutral},
 *       {@code throttle}, {@code service_failure}</td></tr>
 *   <tr><td>{@code sluice.limiter.retries}</td><td>counter</td><td>retries scheduled</td></tr>
 *   <tr><td>{@code sluice.limiter.cooldown.active}</td><td>gauge</td>
 *       <td>1 while the pool's shared cooldown pauses admissions, else 0</td></tr>
 *   <tr><td>{@code sluice.limiter.circuit.state}</td><td>gauge</td>
 *       <td>1 for the circuit's current {@code state} ({@code closed}, {@code open}, {@code
 *       half_open}), 0 for the others</td></tr>
 *   <tr><td>{@code sluice.limiter.drain.generation}</td><td>gauge</td>
 *       <td>the latest drain's generation, 0 before the first</td></tr>
 *   <tr><td>{@code sluice.limiter.draining}</td><td>gauge</td><td>1 while the pool drains</td></tr>
 *   <tr><td>{@code sluice.limiter.events.dropped}</td><td>counter</td>
 *       <td>events the binder's listener lost to a full queue (its counts are low by that)</td></tr>
 * </table>
 *
 * <p>Gauges read the pool's shared state from the store (one {@code inspect} and one control read,
 * reused for {@link Builder#refreshEvery(Duration)}, one second by default), so they show every
 * process's use; counters and the timer count what this limiter's own listener saw.
 *
 * <pre>{@code
 * SluiceMetrics metrics = SluiceMetrics.of(limiter);
 * metrics.bindTo(registry);
 * ...
 * metrics.close();   // stops counting; the meters stay registered
 * }</pre>
 *
 * <p>Thread-safe. Reading a gauge may block on the store; nothing else blocks.
 */
public final class SluiceMetrics implements MeterBinder, AutoCloseable {
  private final Limiter limiter;
  private final Tags tags;
  private final PoolReadings readings;
  private final List<LimiterListener.Subscription> subscriptions = new ArrayList<>();
  private final Consumer<LimiterEvent> counted;

  private SluiceMetrics(Builder b) {
    this.limiter = b.limiter;
    this.counted = b.counted;
    this.tags = Tags.of("pool", limiter.pool()).and(b.tags);
    this.readings = new PoolReadings(limiter, b.refreshEvery);
  }

  /** Meters for {@code limiter} with the defaults. */
  public static SluiceMetrics of(Limiter limiter) {
    return builder(limiter).build();
  }

  /** Returns a builder for {@code limiter}'s meters. */
  public static Builder builder(Limiter limiter) {
    return new Builder(limiter);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    PoolGauges.register(registry, tags, readings);
    EventMeters counts = new EventMeters(registry, tags, counted);
    LimiterListener.Subscription s = limiter.listen(counts, EventMeters.QUEUE_CAPACITY);
    counts.dropped(s);
    synchronized (subscriptions) {
      subscriptions.add(s);
    }
  }

  /**
   * Stops counting events; the meters stay registered, gauges keep reading while the limiter is
   * open.
   */
  @Override
  public void close() {
    synchronized (subscriptions) {
      subscriptions.forEach(LimiterListener.Subscription::close);
      subscriptions.clear();
    }
  }

  /** Builds {@link SluiceMetrics}. Not thread-safe. */
  public static final class Builder {
    private final Limiter limiter;
    private final List<Tag> tags = new ArrayList<>();
    private Duration refreshEvery = Duration.ofSeconds(1);
    private Consumer<LimiterEvent> counted = e -> {};

    private Builder(Limiter limiter) {
      this.limiter = Objects.requireNonNull(limiter, "limiter");
    }

    /**
     * Adds a tag to every meter.
     *
     * @param key the tag's key, not {@code pool}
     * @param value its value
     * @return this builder
     */
    public Builder tag(String key, String value) {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
      if (key.equals("pool")) {
        throw new IllegalArgumentException(
            "tag key must not be 'pool', which every meter has already (the pool's name)");
      }
      tags.add(Tag.of(key, value));
      return this;
    }

    /**
     * Reuses one reading of the pool's state for this long, so a scrape of every gauge reads the
     * store once. Zero reads it for every gauge.
     *
     * @param refreshEvery zero to one hour
     * @return this builder
     */
    public Builder refreshEvery(Duration refreshEvery) {
      Objects.requireNonNull(refreshEvery, "refreshEvery");
      if (refreshEvery.isNegative() || refreshEvery.compareTo(Duration.ofHours(1)) > 0) {
        throw new IllegalArgumentException(
            "refreshEvery must be 0 to 1 hour (PT0S..PT1H), was " + refreshEvery);
      }
      this.refreshEvery = refreshEvery;
      return this;
    }

    /** For tests: called after each event was counted, on the listener's thread. */
    Builder afterCounting(Consumer<LimiterEvent> counted) {
      this.counted = Objects.requireNonNull(counted, "counted");
      return this;
    }

    /** Returns the binder. */
    public SluiceMetrics build() {
      return new SluiceMetrics(this);
    }
  }
}
