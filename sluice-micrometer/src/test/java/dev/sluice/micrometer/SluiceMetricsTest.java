/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.AttemptOutcome;
import dev.sluice.BreakerPolicy;
import dev.sluice.ControlStatus;
import dev.sluice.ExecuteOptions;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterEvent;
import dev.sluice.QueueTimeoutException;
import dev.sluice.RecoveryPolicy;
import dev.sluice.RetryPolicy;
import dev.sluice.ScheduleOptions;
import dev.sluice.memory.MemoryStore;
import dev.sluice.sqlite.SqliteStore;
import dev.sluice.testkit.ManualClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The meters of {@link SluiceMetrics} after real acquires and executions, on a memory pool and on a
 * real SQLite pool, read from a {@link SimpleMeterRegistry}.
 */
class SluiceMetricsTest {
  private static final Duration SAFETY = Duration.ofSeconds(20);

  @TempDir Path dir;

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<AutoCloseable> open = new ArrayList<>();
  private final Counted counted = new Counted();

  /** The events the meters counted, to wait for without polling. */
  static final class Counted {
    private final List<LimiterEvent> events = new ArrayList<>();

    synchronized void add(LimiterEvent e) {
      events.add(e);
      notifyAll();
    }

    synchronized void await(LimiterEvent.Kind kind, int n) throws InterruptedException {
      long end = System.nanoTime() + SAFETY.toNanos();
      while (events.stream().filter(e -> e.kind() == kind).count() < n) {
        long left = end - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("expected " + n + " " + kind + " events, saw " + events);
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }
  }

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  private Limiter bind(Limiter limiter) {
    open.add(limiter);
    SluiceMetrics metrics =
        SluiceMetrics.builder(limiter)
            .tag("app", "test")
            .refreshEvery(Duration.ZERO)
            .afterCounting(counted::add)
            .build();
    metrics.bindTo(registry);
    open.add(metrics);
    return limiter;
  }

  private double gauge(String name, String... tags) {
    return registry.get(name).tags(tags).gauge().value();
  }

  private double count(String name, String... tags) {
    return registry.get(name).tags(tags).counter().count();
  }

  @Test
  void gaugesShowTheSharedStateOfAMemoryPool() throws Exception {
    Limiter limiter =
        bind(
            Limiter.open(
                MemoryStore.named("metrics-" + UUID.randomUUID()),
                LimiterConfig.builder().maxConcurrent(3).reservoir(10).build()));
    assertThat(gauge("sluice.limiter.capacity", "app", "test")).isEqualTo(3);
    assertThat(gauge("sluice.limiter.active.weight")).isZero();
    try (Lease a = limiter.acquire(2)) {
      assertThat(gauge("sluice.limiter.active.weight", "pool", limiter.pool())).isEqualTo(2);
      assertThat(gauge("sluice.limiter.leases")).isEqualTo(1);
      assertThat(gauge("sluice.limiter.reservoir"))
          .isEqualTo(limiter.currentReservoir().getAsLong())
          .isLessThan(10);
      CompletableFuture<String> waiting =
          limiter.schedule(admission -> "admitted", ScheduleOptions.builder().weight(2).build());
      counted.await(LimiterEvent.Kind.QUEUED, 1);
      assertThat(gauge("sluice.limiter.queue.length")).isEqualTo(1);
      a.close();
      assertThat(waiting.get(SAFETY.toSeconds(), TimeUnit.SECONDS)).isEqualTo("admitted");
    }
    counted.await(LimiterEvent.Kind.GRANTED, 2);
    assertThat(gauge("sluice.limiter.queue.length")).isZero();
    assertThat(count("sluice.limiter.admissions")).isEqualTo(2);
    assertThat(registry.get("sluice.limiter.wait").timer().count()).isEqualTo(2);
    assertThat(gauge("sluice.limiter.cooldown.active")).isZero();
    assertThat(gauge("sluice.limiter.circuit.state", "state", "closed")).isEqualTo(1);
    assertThat(gauge("sluice.limiter.circuit.state", "state", "open")).isZero();
    assertThat(registry.get("sluice.limiter.events.dropped").functionCounter().count()).isZero();
  }

  /** Runs one execution whose only attempt the classifier judges as given. */
  private static void runOnce(Limiter limiter, AttemptOutcome outcome) throws Exception {
    ExecuteOptions once = ExecuteOptions.builder().classifier((r, f) -> outcome).build();
    String result = limiter.execute(ctx -> "ran", once).get(SAFETY.toSeconds(), TimeUnit.SECONDS);
    assertThat(result).isEqualTo("ran");
  }

  /** Checks that the circuit gauge shows {@code state} and only it. */
  private void assertCircuit(String state) {
    for (String s : List.of("closed", "open", "half_open")) {
      assertThat(gauge("sluice.limiter.circuit.state", "state", s))
          .as("circuit gauge %s while %s", s, state)
          .isEqualTo(s.equals(state) ? 1 : 0);
    }
  }

  @Test
  void theCooldownAndCircuitGaugesFollowEachStateOfThePool() throws Exception {
    ManualClock clock = new ManualClock();
    LimiterConfig config =
        LimiterConfig.builder()
            .maxConcurrent(10)
            .recovery(RecoveryPolicy.builder().breaker(BreakerPolicy.consecutive().build()).build())
            .build();
    Limiter limiter =
        bind(Limiter.open(MemoryStore.named("metrics-" + UUID.randomUUID(), clock), config));
    runOnce(limiter, AttemptOutcome.throttle());
    assertThat(gauge("sluice.limiter.cooldown.active")).as("inside the cooldown").isEqualTo(1);
    assertCircuit("closed");
    clock.advance(Duration.ofMillis(499));
    assertThat(gauge("sluice.limiter.cooldown.active")).isEqualTo(1);
    clock.advance(Duration.ofMillis(1));
    assertThat(gauge("sluice.limiter.cooldown.active")).as("at the cooldown's end").isZero();

    for (int i = 0; i < 5; i++) {
      runOnce(limiter, AttemptOutcome.serviceFailure());
    }
    assertCircuit("open");
    clock.advance(Duration.ofSeconds(30).minusMillis(1));
    assertCircuit("open");
    clock.advance(Duration.ofMillis(1));
    // No probe was admitted yet: the pause's end alone makes the circuit half-open.
    assertThat(limiter.inspect().leases()).isEmpty();
    assertCircuit("half_open");
    runOnce(limiter, AttemptOutcome.success());
    assertCircuit("closed");
    assertThat(gauge("sluice.limiter.cooldown.active")).isZero();
  }

  @Test
  void attemptsRetriesAndTheDrainAreMetered() throws Exception {
    Limiter limiter =
        bind(
            Limiter.open(
                MemoryStore.named("metrics-" + UUID.randomUUID()),
                LimiterConfig.builder().maxConcurrent(1).build()));
    AtomicInteger runs = new AtomicInteger();
    ExecuteOptions options =
        ExecuteOptions.builder()
            .replaySafe(true)
            .retry(
                RetryPolicy.builder()
                    .maxAttempts(3)
                    .delays(Duration.ofMillis(1), Duration.ofMillis(1))
                    .jitter(0)
                    .build())
            .classifier(
                (result, failure) ->
                    failure != null ? AttemptOutcome.serviceFailure() : AttemptOutcome.success())
            .build();
    String result =
        limiter
            .execute(
                ctx -> {
                  if (runs.incrementAndGet() == 1) {
                    throw new IllegalStateException("first attempt fails");
                  }
                  return "second";
                },
                options)
            .get(SAFETY.toSeconds(), TimeUnit.SECONDS);
    assertThat(result).isEqualTo("second");
    counted.await(LimiterEvent.Kind.ATTEMPT_ENDED, 2);
    assertThat(count("sluice.limiter.attempts", "outcome", "service_failure")).isEqualTo(1);
    assertThat(count("sluice.limiter.attempts", "outcome", "success")).isEqualTo(1);
    assertThat(count("sluice.limiter.attempts", "outcome", "throttle")).isZero();
    assertThat(count("sluice.limiter.retries")).isEqualTo(1);

    ControlStatus drained = limiter.maintenance().drain();
    assertThat(gauge("sluice.limiter.drain.generation")).isEqualTo(drained.generation());
    assertThat(gauge("sluice.limiter.draining")).isEqualTo(1);
    limiter.maintenance().resume(drained.generation());
    assertThat(gauge("sluice.limiter.draining")).isZero();
  }

  @Test
  void aRealSqlitePoolIsMeteredAcrossItsLimiters() throws Exception {
    LimiterConfig config = LimiterConfig.builder().maxConcurrent(2).build();
    Limiter metered = bind(Limiter.open(SqliteStore.directory(dir), config));
    Limiter other = Limiter.open(SqliteStore.directory(dir), config);
    open.add(other);
    try (Lease held = other.acquire(2)) {
      assertThat(gauge("sluice.limiter.active.weight")).isEqualTo(2);
      assertThat(gauge("sluice.limiter.capacity")).isEqualTo(2);
      CompletableFuture<String> late =
          metered.schedule(
              admission -> "never",
              ScheduleOptions.builder().queueTimeout(Duration.ofMillis(50)).build());
      assertThatThrownBy(() -> late.get(SAFETY.toSeconds(), TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(QueueTimeoutException.class);
      counted.await(LimiterEvent.Kind.TIMED_OUT, 1);
      assertThat(count("sluice.limiter.requests.unstarted", "reason", "timed_out")).isEqualTo(1);
      assertThat(count("sluice.limiter.admissions")).isZero();
    }
    assertThat(metered.call(() -> "ran")).isEqualTo("ran");
    counted.await(LimiterEvent.Kind.GRANTED, 1);
    assertThat(count("sluice.limiter.admissions")).isEqualTo(1);
    assertThat(gauge("sluice.limiter.active.weight")).isZero();
    assertThat(gauge("sluice.limiter.reservoir")).isNaN();
  }

  @Test
  void badSettingsAreRefusedByName() {
    Limiter limiter =
        Limiter.open(
            MemoryStore.named("metrics-" + UUID.randomUUID()),
            LimiterConfig.builder().maxConcurrent(1).build());
    open.add(limiter);
    assertThatThrownBy(() -> SluiceMetrics.builder(limiter).refreshEvery(Duration.ofHours(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("refreshEvery")
        .hasMessageContaining("PT2H");
    assertThatThrownBy(() -> SluiceMetrics.builder(limiter).tag("pool", "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pool");
  }
}
