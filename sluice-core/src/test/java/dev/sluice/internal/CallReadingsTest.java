/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ExecuteOptions;
import dev.sluice.Instrumentation;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterOptions;
import dev.sluice.Observation;
import dev.sluice.ScheduleOptions;
import dev.sluice.SluiceException;
import dev.sluice.TimeSource;
import dev.sluice.memory.MemoryStore;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * How often a blocking managed call reads the clock: a reading costs tens of nanoseconds on a
 * virtual machine, a fair part of a call, so the call takes only the readings its decisions need. A
 * call granted at once by a store that applied the acquire at the caller's own reading starts at
 * that reading; the clock is read again only when the task returns.
 */
class CallReadingsTest {
  @Test
  void aCallGrantedAtOnceTakesNoReadingWhenItStarts() throws Exception {
    CountingClock clock = new CountingClock();
    try (Limiter limiter =
        Limiter.open(
            MemoryStore.named("readings-" + UUID.randomUUID(), clock),
            LimiterConfig.builder().maxConcurrent(4).build())) {
      ExecuteOptions options = ExecuteOptions.builder().deadline(Duration.ofMinutes(5)).build();
      limiter.call(ctx -> "warm", options);
      int before = clock.readings.get();
      String answer = limiter.call(ctx -> "ok", options);
      assertThat(answer).isEqualTo("ok");
      // Its start, its task's end, and the attempt watch's disarm when the attempt ends, which a
      // watch does on any clock but the system's (there its timer lingers instead). No reading
      // when it was granted: the store applied the acquire at the call's own start reading.
      assertThat(clock.readings.get() - before).isEqualTo(3);
    }
  }

  @Test
  void aDeadlineThatPassesInAnInstrumentationsHookKeepsTheFirstTaskFromStarting() throws Exception {
    CountingClock clock = new CountingClock();
    // The execution's hook runs after the call read the clock: here it takes two seconds.
    Instrumentation slowHook =
        new Instrumentation() {
          @Override
          public Observation schedule(String pool, ScheduleOptions options) {
            return Observation.NONE;
          }

          @Override
          public Observation execute(String pool, String operationId, ExecuteOptions options) {
            clock.skip(Duration.ofSeconds(2));
            return Observation.NONE;
          }

          @Override
          public Observation attempt(Observation execution, int attempt) {
            return Observation.NONE;
          }
        };
    AtomicInteger ran = new AtomicInteger();
    try (Limiter limiter =
        Limiter.open(
            MemoryStore.named("hooked-" + UUID.randomUUID(), clock),
            LimiterConfig.builder().maxConcurrent(4).build(),
            LimiterOptions.builder().instrumentation(slowHook).build())) {
      ExecuteOptions options = ExecuteOptions.builder().deadline(Duration.ofSeconds(1)).build();
      assertThatThrownBy(() -> limiter.call(ctx -> ran.incrementAndGet(), options))
          .isInstanceOf(SluiceException.class);
      assertThat(ran).as("the task never started past its deadline").hasValue(0);
    }
  }

  /** The system's clocks, counting readings of either, and moved forward by {@link #skip}. */
  private static final class CountingClock implements TimeSource {
    final AtomicInteger readings = new AtomicInteger();
    private volatile long skippedNanos;

    void skip(Duration d) {
      skippedNanos += d.toNanos();
    }

    @Override
    public long wallMillis() {
      readings.incrementAndGet();
      return TimeSource.system().wallMillis() + skippedNanos / 1_000_000L;
    }

    @Override
    public long wallMillisAt(long monotonicNanos) {
      return TimeSource.system().wallMillisAt(monotonicNanos - skippedNanos)
          + skippedNanos / 1_000_000L;
    }

    @Override
    public long monotonicNanos() {
      readings.incrementAndGet();
      return TimeSource.system().monotonicNanos() + skippedNanos;
    }

    @Override
    public Timer schedule(Runnable task, long delayNanos) {
      return TimeSource.system().schedule(task, delayNanos);
    }

    @Override
    public Timer scheduleAtNanos(Runnable task, long atNanos) {
      return TimeSource.system().scheduleAtNanos(task, atNanos - skippedNanos);
    }
  }
}
