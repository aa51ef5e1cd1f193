/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.AccountingOverflowException;
import dev.sluice.AdmittedTask;
import dev.sluice.ExecuteOptions;
import dev.sluice.ExecutionTask;
import dev.sluice.Instrumentation;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterListener;
import dev.sluice.LimiterOptions;
import dev.sluice.Maintenance;
import dev.sluice.Observation;
import dev.sluice.PoolSnapshot;
import dev.sluice.QueueTimeoutException;
import dev.sluice.ScheduleOptions;
import dev.sluice.SluiceException;
import dev.sluice.TimeSource;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One limiter: validates requests and hands them to its {@link Requests}, runs the pool-wide
 * operations, and closes through its {@link CloseLifecycle} without touching other limiters' work.
 * See {@link Limiter} for the contract.
 */
final class LimiterImpl implements Limiter {
  private final SharedPool pool;
  private final LimiterConfig config;
  private final ScheduleOptions defaultOptions = ScheduleOptions.defaults();
  private final long defaultLifetime;
  private final LimiterEvents events;
  private final CloseLifecycle lifecycle;
  private final Requests requests;
  private final PoolMaintenance maintenance;
  private final Instrumentation instrumentation;

  LimiterImpl(SharedPool pool, LimiterOptions options) {
    this.pool = pool;
    this.config = pool.config();
    TimeSource clock = options.clock().orElse(pool.storeClock());
    this.events = new LimiterEvents(pool.name(), clock, options.listener().orElse(null));
    this.lifecycle = new CloseLifecycle(pool);
    this.requests =
        new Requests(
            this, pool, options.executor().orElse(pool.callbacks()), clock, lifecycle, events);
    this.defaultLifetime = defaultOptions.leaseLifetimeMillis(config);
    this.maintenance = new PoolMaintenance(this, pool);
    this.instrumentation = options.instrumentation().orElse(null);
    pool.control().watch().join(events);
    lifecycle.whenClosed().whenComplete((r, e) -> pool.control().watch().leave(events));
  }

  SharedPool shared() {
    return pool;
  }

  LimiterEvents events() {
    return events;
  }

  CloseLifecycle lifecycle() {
    return lifecycle;
  }

  Requests requests() {
    return requests;
  }

  /** The hook that observes this limiter's work, or null for none. */
  Instrumentation instrumentation() {
    return instrumentation;
  }

  @Override
  public Optional<LimiterListener.Subscription> optionsListener() {
    return Optional.ofNullable(events.optionsSubscription());
  }

  @Override
  public LimiterListener.Subscription listen(LimiterListener listener, int queueCapacity) {
    Objects.requireNonNull(listener, "listener");
    if (queueCapacity < 1 || queueCapacity > 1 << 20) {
      throw new IllegalArgumentException(
          "queueCapacity must be 1.." + (1 << 20) + ", was " + queueCapacity);
    }
    return events.listen(listener, queueCapacity);
  }

  @Override
  public String pool() {
    return pool.name();
  }

  @Override
  public LimiterConfig config() {
    return config;
  }

  // ---- callbacks on the executor

  @Override
  public <T> CompletableFuture<T> schedule(Callable<T> task) {
    Objects.requireNonNull(task, "task");
    return schedule(admission -> task.call(), defaultOptions);
  }

  @Override
  public <T> CompletableFuture<T> schedule(AdmittedTask<T> task, ScheduleOptions options) {
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(options, "options");
    checkWeight(options.weight());
    // Without a hook nothing is made: the untraced path costs one null check.
    Observation observation =
        instrumentation == null ? null : instrumentation.schedule(pool.name(), options);
    return requests.schedule(task, options, observation);
  }

  // ---- managed execution

  @Override
  public <T> CompletableFuture<T> execute(ExecutionTask<T> task, ExecuteOptions options) {
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(options, "options");
    checkWeight(options.schedule().weight());
    SluiceException refusal = requests.refusal();
    if (refusal != null) {
      return CompletableFuture.failedFuture(refusal);
    }
    if (!lifecycle.admit()) {
      return CompletableFuture.failedFuture(lifecycle.closedException());
    }
    Execution<T> execution;
    try {
      execution = new Execution<>(this, task, options);
    } catch (RuntimeException | Error e) {
      // Only an instrumentation hook throws here: the execution never began, so it is counted out
      // again, or a close would wait for it forever.
      lifecycle.ended();
      throw e;
    }
    execution.start();
    return execution.future();
  }

  @Override
  public <T> T call(ExecutionTask<T> task, ExecuteOptions options) throws Exception {
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(options, "options");
    checkWeight(options.schedule().weight());
    SluiceException refusal = requests.refusal();
    if (refusal != null) {
      throw refusal;
    }
    if (!lifecycle.admit()) {
      throw lifecycle.closedException();
    }
    return new CallerExecution<>(this, task, options).call();
  }

  // ---- the calling thread

  @Override
  public <T> T call(Callable<T> task) throws Exception {
    Objects.requireNonNull(task, "task");
    return requests.call(task, defaultLifetime);
  }

  @Override
  public Lease acquire(long weight) throws InterruptedException {
    checkWeight(weight);
    return new HeldLease(requests.acquireBlocking(weight, defaultLifetime, -1));
  }

  @Override
  public Optional<Lease> tryAcquire(long weight) {
    checkWeight(weight);
    try {
      return Optional.of(new HeldLease(requests.acquireBlocking(weight, defaultLifetime, 0)));
    } catch (QueueTimeoutException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      // A zero wait never parks, so this cannot happen; keep the status for the caller anyway.
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  @Override
  public Optional<Lease> tryAcquire(long weight, Duration wait) throws InterruptedException {
    checkWeight(weight);
    Objects.requireNonNull(wait, "wait");
    if (wait.isZero() || wait.isNegative()) {
      return tryAcquire(weight);
    }
    long waitMillis = Math.max(1, Math.min(wait.toMillis(), Duration.ofDays(3650).toMillis()));
    try {
      return Optional.of(
          new HeldLease(requests.acquireBlocking(weight, defaultLifetime, waitMillis)));
    } catch (QueueTimeoutException e) {
      return Optional.empty();
    }
  }

  // ---- pool-wide operations

  @Override
  public PoolSnapshot inspect() {
    checkOpen();
    return pool.inspect();
  }

  @Override
  public OptionalLong currentReservoir() {
    checkOpen();
    pool.checkHealthy();
    return pool.currentReservoir();
  }

  @Override
  public long incrementReservoir(long delta) {
    checkOpen();
    if (config.localHandOffs() > 0) {
      throw new IllegalStateException(
          "pool '"
              + pool.name()
              + "' passes units locally (localHandOffs="
              + config.localHandOffs()
              + "), and a reservoir needs every admission in the pool's store; the balance is"
              + " unchanged");
    }
    pool.checkHealthy();
    OptionalLong balance = pool.incrementReservoir(delta);
    if (balance.isEmpty()) {
      throw new AccountingOverflowException(
          "adding "
              + delta
              + " tokens to the reservoir of pool '"
              + pool.name()
              + "' would overflow a long; the balance is unchanged");
    }
    return balance.getAsLong();
  }

  @Override
  public Maintenance maintenance() {
    return maintenance;
  }

  /** Maintenance needs an open limiter and a healthy store. */
  void checkOpenForMaintenance() {
    checkOpen();
    pool.checkHealthy();
  }

  // ---- closing

  @Override
  public void close() {
    CloseLifecycle.await(closeAsync());
  }

  @Override
  public void drainAndClose() {
    CloseLifecycle.await(drainAndCloseAsync());
  }

  @Override
  public CompletionStage<Void> closeAsync() {
    return beginClose(CloseLifecycle.Mode.CLOSING);
  }

  @Override
  public CompletionStage<Void> drainAndCloseAsync() {
    return beginClose(CloseLifecycle.Mode.DRAINING);
  }

  private CompletionStage<Void> beginClose(CloseLifecycle.Mode requested) {
    if (CallbackScope.inCallbackOf(this)) {
      throw new IllegalStateException(
          "a callback of pool '"
              + pool.name()
              + "' cannot close its own limiter: close waits for"
              + " that callback to finish");
    }
    CompletionStage<Void> closed = lifecycle.begin(requested);
    requests.attemptWatch().stopLingering();
    // A close from a continuation of one of this limiter's futures must not wait for the request
    // whose completion is running it: that future is done already.
    CallbackScope.endCompletionsOf(this);
    return closed;
  }

  // ---- checks

  private void checkWeight(long weight) {
    long cap = config.maxConcurrentRaw();
    if (weight < 1) {
      throw new IllegalArgumentException(
          "weight must be at least 1 (allowed 1.."
              + (cap >= 0 ? cap : Long.MAX_VALUE)
              + "), was "
              + weight);
    }
    if (cap >= 0 && weight > cap) {
      throw new IllegalArgumentException(
          "weight must be at most maxConcurrent of pool '"
              + pool.name()
              + "' (allowed 1.."
              + cap
              + "), was "
              + weight);
    }
  }

  private void checkOpen() {
    if (!lifecycle.open()) {
      throw lifecycle.closedException();
    }
  }
}
