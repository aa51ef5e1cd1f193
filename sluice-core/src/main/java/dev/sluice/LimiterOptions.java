/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * Local settings of one limiter, never shared with other users of the pool: where callbacks run,
 * which clock times local waits, who hears about each request, and what observes it (tracing).
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class LimiterOptions {
  private static final LimiterOptions DEFAULTS = builder().build();

  private final Executor executor;
  private final TimeSource clock;
  private final LimiterListener listener;
  private final Instrumentation instrumentation;

  private LimiterOptions(Builder b) {
    this.executor = b.executor;
    this.clock = b.clock;
    this.listener = b.listener;
    this.instrumentation = b.instrumentation;
  }

  /**
   * Returns the defaults: the limiter's own executor, the store's clock, no listener, no
   * instrumentation.
   */
  public static LimiterOptions defaults() {
    return DEFAULTS;
  }

  /** Returns a builder with the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The executor for {@code schedule} callbacks, or empty for the limiter's own: a virtual thread
   * per callback where the JVM has them, else a cached pool of daemon threads named {@code
   * sluice-<pool>-N}.
   */
  public Optional<Executor> executor() {
    return Optional.ofNullable(executor);
  }

  /** The clock for local waits and timers, or empty to use the store's. */
  public Optional<TimeSource> clock() {
    return Optional.ofNullable(clock);
  }

  /** The listener for the limiter's events, or empty. */
  public Optional<LimiterListener> listener() {
    return Optional.ofNullable(listener);
  }

  /** The instrumentation that observes this limiter's requests, or empty. */
  public Optional<Instrumentation> instrumentation() {
    return Optional.ofNullable(instrumentation);
  }

  /** Builds {@link LimiterOptions}. Not thread-safe. */
  public static final class Builder {
    private Executor executor;
    private TimeSource clock;
    private LimiterListener listener;
    private Instrumentation instrumentation;

    private Builder() {}

    /**
     * Runs {@code schedule} callbacks on this executor. It must run each task on a thread other
     * than the submitting one; a rejected task fails its request with the rejection.
     *
     * @param executor the executor
     * @return this builder
     */
    public Builder executor(Executor executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /**
     * Times this limiter's queue timeouts with this clock. The pool's own deadlines (spacing,
     * refill, lease expiry) always follow the store's clock, which every owner shares.
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clock(TimeSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Reports this limiter's events to this listener for the limiter's whole life, through a queue
     * of 1024 events on a thread of its own (see {@link LimiterListener}); {@link
     * Limiter#optionsListener()} tells what it dropped, and {@link Limiter#listen(LimiterListener)}
     * adds listeners for a while.
     *
     * @param listener the listener
     * @return this builder
     */
    public Builder listener(LimiterListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * Observes this limiter's {@code schedule} requests and managed executions with this hook (for
     * example {@code dev.sluice.opentelemetry.SluiceTracing}), which also carries the submitting
     * thread's context into their callbacks. Without one, nothing is observed.
     *
     * @param instrumentation the hook
     * @return this builder
     */
    public Builder instrumentation(Instrumentation instrumentation) {
      this.instrumentation = Objects.requireNonNull(instrumentation, "instrumentation");
      return this;
    }

    /** Returns the options. */
    public LimiterOptions build() {
      return new LimiterOptions(this);
    }
  }
}
