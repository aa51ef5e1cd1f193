/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.ControlStatus;
import dev.sluice.Maintenance;
import dev.sluice.StaleDrainException;
import dev.sluice.spi.AcknowledgeAnswer;
import dev.sluice.spi.ControlState;
import dev.sluice.spi.ControlView;
import dev.sluice.spi.PoolCommand;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The pool-wide drain of one limiter: each call is one command of the pool's algorithm, and a wait
 * sleeps until the pool's {@link DrainWatch} sees the drain settled. See {@link Maintenance}.
 *
 * <p>Thread-safe.
 */
final class PoolMaintenance implements Maintenance {
  private final LimiterImpl limiter;
  private final String name;
  private final PoolControl control;

  PoolMaintenance(LimiterImpl limiter, SharedPool pool) {
    this.limiter = limiter;
    this.name = pool.name();
    this.control = pool.control();
  }

  @Override
  public ControlStatus status() {
    limiter.checkOpenForMaintenance();
    return status(control.execute(new PoolCommand.ReadControl(control.owner())));
  }

  @Override
  public ControlStatus drain() {
    limiter.checkOpenForMaintenance();
    return status(control.execute(new PoolCommand.Drain(control.owner())));
  }

  @Override
  public ControlStatus resume(long generation) {
    if (generation < 1) {
      throw new IllegalArgumentException(
          "generation must be at least 1 (allowed 1.." + Long.MAX_VALUE + "), was " + generation);
    }
    limiter.checkOpenForMaintenance();
    if (!control.resume(generation)) {
      ControlView v = control.execute(new PoolCommand.ReadControl(control.owner()));
      throw new StaleDrainException(
          name, generation, v.control().drain().generation(), v.control().drain().draining());
    }
    return status();
  }

  @Override
  public boolean await(long generation, Duration timeout) throws InterruptedException {
    if (generation < 1) {
      throw new IllegalArgumentException(
          "generation must be at least 1 (allowed 1.." + Long.MAX_VALUE + "), was " + generation);
    }
    Objects.requireNonNull(timeout, "timeout");
    limiter.checkOpenForMaintenance();
    CompletableFuture<Boolean> settled = control.watchDrain(generation);
    try {
      long nanos = Math.max(0, Math.min(timeout.toNanos(), Duration.ofDays(3650).toNanos()));
      return settled.get(nanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
    } finally {
      settled.cancel(false);
    }
  }

  @Override
  public ControlStatus acknowledge(
      long generation, Collection<String> operationIds, String reason) {
    Objects.requireNonNull(operationIds, "operationIds");
    Objects.requireNonNull(reason, "reason");
    List<String> ids = new ArrayList<>(operationIds);
    for (String id : ids) {
      Objects.requireNonNull(id, "an operation id");
    }
    // The command checks the generation, the ids and the reason before anything is sent.
    PoolCommand.Acknowledge command =
        new PoolCommand.Acknowledge(control.owner(), generation, ids, reason);
    limiter.checkOpenForMaintenance();
    AcknowledgeAnswer answer = control.acknowledge(command);
    if (answer.stale()) {
      ControlView v = control.execute(new PoolCommand.ReadControl(control.owner()));
      throw new StaleDrainException(
          name, generation, v.control().drain().generation(), v.control().drain().draining());
    }
    if (!answer.unknown().isEmpty()) {
      throw new IllegalArgumentException(
          "operationIds must name unconfirmed operations of pool '"
              + name
              + "' (see maintenance().status().unconfirmed()); these are not: "
              + answer.unknown()
              + "; nothing was acknowledged");
    }
    return status();
  }

  static ControlStatus status(ControlView v) {
    ControlState c = v.control();
    long until = c.cooldown().until();
    return new ControlStatus(
        c.drain().generation(),
        c.drain().draining(),
        v.leases(),
        v.waiters(),
        until > v.now() ? Optional.of(Instant.ofEpochMilli(until)) : Optional.empty(),
        ControlStatus.Circuit.valueOf(v.circuit().name()),
        v.circuit() == ControlState.BreakerPhase.OPEN
            ? Optional.of(Instant.ofEpochMilli(c.breaker().openUntil()))
            : Optional.empty(),
        running(c),
        unconfirmed(c));
  }

  private static int running(ControlState c) {
    int n = 0;
    for (ControlState.Operation o : c.operations()) {
      if (o.status() == ControlState.OperationStatus.RUNNING) {
        n++;
      }
    }
    return n;
  }

  private static List<ControlStatus.UnconfirmedOperation> unconfirmed(ControlState c) {
    List<ControlStatus.UnconfirmedOperation> out = new ArrayList<>();
    for (ControlState.Operation o : c.operations()) {
      if (o.status() != ControlState.OperationStatus.RUNNING) {
        out.add(
            new ControlStatus.UnconfirmedOperation(
                o.id(),
                o.owner(),
                o.generation(),
                o.status() == ControlState.OperationStatus.ACKNOWLEDGED,
                o.reason()));
      }
    }
    return out;
  }
}
