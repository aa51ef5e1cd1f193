/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.OwnerLostException;
import dev.sluice.TimeSource;
import dev.sluice.spi.ControlView;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.ReportAnswer;
import dev.sluice.spi.ReportedOutcome;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * This JVM's side of a pool's control state: the drain commands, the waits for drains to settle,
 * and the report of an attempt's outcome with the release of its lease, which managed execution
 * sends through {@link Ticket#reportOutcome} (or directly through {@link #reportAsync}).
 *
 * <p>Thread-safe.
 */
final class PoolControl {
  private final CommandRunner runner;
  private final HandOffCoordinator handOffs;
  private final DrainWatch drains;
  private final ControlWatch watch;

  PoolControl(
      String name, CommandRunner runner, HandOffCoordinator handOffs, TimeSource storeClock) {
    this.runner = runner;
    this.handOffs = handOffs;
    this.drains = new DrainWatch(name, this::readAsync);
    this.watch = new ControlWatch(this::readAsync, storeClock);
  }

  /** Reports the control state's changes to the listeners of this JVM's limiters. */
  ControlWatch watch() {
    return watch;
  }

  String owner() {
    return runner.owner();
  }

  /** Runs a drain or read command and wakes this JVM's drain waits if it changed anything. */
  ControlView execute(PoolCommand<ControlView> command) {
    ControlView v = runner.execute(command);
    drains.changed();
    watch.observe(v);
    return v;
  }

  /** Ends a drain; false for a stale generation. */
  boolean resume(long generation) {
    boolean resumed = runner.execute(new PoolCommand.Resume(runner.owner(), generation));
    drains.changed();
    watch.refresh();
    return resumed;
  }

  CompletableFuture<Boolean> watchDrain(long generation) {
    return drains.watch(generation);
  }

  /** The pool may have changed: a release of this JVM's, or another owner's commit. */
  void changed() {
    drains.changed();
  }

  /** Another owner committed: its change may be a drain, a cooldown or the circuit's. */
  void foreignChange() {
    drains.changed();
    watch.refresh();
  }

  private CompletableFuture<ControlView> readAsync() {
    return runner
        .submit(new PoolCommand.ReadControl(runner.owner()))
        .whenComplete(
            (v, e) -> {
              if (v != null) {
                watch.observe(v);
              }
            });
  }

  /**
   * Releases {@code lease} and reports how the attempt that held it ended, in one command, so the
   * shared cooldown and the circuit breaker count it at most once; a lease that expired or was
   * reclaimed meanwhile is no evidence ({@link ReportAnswer#released()} false). The unit is never
   * passed to another request of this JVM: it goes back to the pool, where the cooldown and the
   * circuit decide what is admitted next. A transient store failure leaves the release (without the
   * report) to the runner's recovery.
   *
   * @param lease the attempt's lease, held by this JVM's owner
   * @param outcome how the attempt ended
   * @param retryAfterMillis the provider's retry-after, 0 for none
   * @return the store's answer
   */
  CompletableFuture<ReportAnswer> reportAsync(
      LeaseRecord lease, ReportedOutcome outcome, long retryAfterMillis) {
    handOffs.givenBack(lease);
    return runner
        .submit(new PoolCommand.Report(runner.owner(), lease.id(), outcome, retryAfterMillis))
        .whenComplete(
            (r, e) -> {
              if (e != null && CommandRunner.transientFailure(e)) {
                runner.releaseLater(lease);
              }
              drains.changed();
              if (r != null && r.counted()) {
                // The report may have started or ended a cooldown or moved the circuit.
                watch.refresh();
              }
            })
        .exceptionally(
            e -> {
              if (CommandRunner.unwrap(e) instanceof OwnerLostException) {
                return new ReportAnswer(false, false);
              }
              throw e instanceof CompletionException c ? c : new CompletionException(e);
            });
  }
}
