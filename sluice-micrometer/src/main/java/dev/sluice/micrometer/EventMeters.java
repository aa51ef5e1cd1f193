/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.micrometer;

import dev.sluice.AttemptOutcome;
import dev.sluice.LimiterEvent;
import dev.sluice.LimiterListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The listener behind the counters and the wait timer. Events arrive one at a time on the
 * listener's thread, so its plain map of queued requests needs no lock.
 *
 * <p>Confined to the listener's delivery thread, except {@link #dropped}, called once at binding.
 */
final class EventMeters implements LimiterListener {
  /** The listener's queue: large, since counting is fast and a drop makes a count low. */
  static final int QUEUE_CAPACITY = 16_384;

  /** Queued requests remembered at most: a dropped GRANTED must not grow the map for ever. */
  private static final int MAX_QUEUED = 100_000;

  private final MeterRegistry registry;
  private final Tags tags;
  private final Timer wait;
  private final Counter admissions;
  private final Counter retries;
  private final Map<String, Counter> unstarted = new HashMap<>();
  private final Map<String, Counter> attempts = new HashMap<>();
  private final Map<Long, Long> queuedAt = new HashMap<>();
  private final Consumer<LimiterEvent> counted;

  EventMeters(MeterRegistry registry, Tags tags, Consumer<LimiterEvent> counted) {
    this.registry = registry;
    this.tags = tags;
    this.counted = counted;
    this.wait =
        Timer.builder("sluice.limiter.wait")
            .description("wait from request to admission")
            .tags(tags)
            .register(registry);
    this.admissions =
        Counter.builder("sluice.limiter.admissions")
            .description("admissions")
            .tags(tags)
            .register(registry);
    this.retries =
        Counter.builder("sluice.limiter.retries")
            .description("retries scheduled by managed executions")
            .tags(tags)
            .register(registry);
    for (String reason : new String[] {"withdrawn", "timed_out", "expired", "owner_lost"}) {
      unstarted.put(
          reason,
          Counter.builder("sluice.limiter.requests.unstarted")
              .description("requests that ended without starting")
              .tags(tags.and("reason", reason))
              .register(registry));
    }
    for (String outcome : new String[] {"success", "neutral", "throttle", "service_failure"}) {
      attempts.put(
          outcome,
          Counter.builder("sluice.limiter.attempts")
              .description("managed execution attempts by outcome")
              .tags(tags.and("outcome", outcome))
              .register(registry));
    }
  }

  /** Registers the count of events the subscription dropped. */
  void dropped(LimiterListener.Subscription s) {
    FunctionCounter.builder(
            "sluice.limiter.events.dropped", s, LimiterListener.Subscription::droppedEvents)
        .description("events the metrics listener lost to a full queue")
        .tags(tags)
        .register(registry);
  }

  @Override
  public void onEvent(LimiterEvent event) {
    if (event instanceof LimiterEvent.Request r) {
      request(r);
    } else if (event instanceof LimiterEvent.AttemptEnded a) {
      attempts.get(outcome(a.outcome())).increment();
    } else if (event instanceof LimiterEvent.RetryScheduled) {
      retries.increment();
    }
    // Attempt starts and control changes: the gauges show the state.
    counted.accept(event);
  }

  private void request(LimiterEvent.Request r) {
    switch (r.kind()) {
      case QUEUED -> {
        if (queuedAt.size() < MAX_QUEUED) {
          queuedAt.put(r.requestId(), r.monotonicNanos());
        }
      }
      case GRANTED -> {
        Long since = queuedAt.remove(r.requestId());
        wait.record(
            since == null ? 0 : Math.max(0, r.monotonicNanos() - since), TimeUnit.NANOSECONDS);
        admissions.increment();
      }
      case WITHDRAWN -> unstarted(r, "withdrawn");
      case TIMED_OUT -> unstarted(r, "timed_out");
      case EXPIRED -> unstarted(r, "expired");
      case OWNER_LOST -> unstarted(r, "owner_lost");
      default -> {
        // STARTED, RELEASED: nothing to count.
      }
    }
  }

  private void unstarted(LimiterEvent.Request r, String reason) {
    queuedAt.remove(r.requestId());
    unstarted.get(reason).increment();
  }

  private static String outcome(AttemptOutcome o) {
    if (o instanceof AttemptOutcome.Throttle) {
      return "throttle";
    }
    if (o instanceof AttemptOutcome.ServiceFailure) {
      return "service_failure";
    }
    return o == AttemptOutcome.success() ? "success" : "neutral";
  }
}
