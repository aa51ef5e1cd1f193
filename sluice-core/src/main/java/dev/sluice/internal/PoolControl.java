/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.OwnerLostException;
import dev.sluice.TimeSource;
import dev.sluice.spi.AcknowledgeAnswer;
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
    this.drains = new DrainWatch(name, this::readAsync, storeClock);
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

  /** Acknowledges unconfirmed operations and wakes this JVM's drain waits. */
  AcknowledgeAnswer acknowledge(PoolCommand.Acknowledge command) {
    AcknowledgeAnswer a = runner.execute(command);
    drains.changed();
    return a;
  }

  CompletableFuture<Boolean> watchDrain(long generation) {
    return drains.watch(generation);
  }

  /** The pool may have changed: a release of this JVM's, or another owner's commit. */
  void changed() {
    drains.changed();
  }

  /**
   * Ends this owner's record of an operation that finished without its last report doing so. A
   * transient failure leaves the end to the runner's recovery, which sends it once the store
   * answers; any other failure is left alone: the record stays running until the owner retires or
   * dies, which a drain shows rather than hides.
   */
  void finishAsync(String operation) {
    try {
      runner
          .submit(new PoolCommand.Finish(runner.owner(), operation))
          .whenComplete(
              (r, e) -> {
                if (e != null && CommandRunner.transientFailure(e)) {
                  runner.finishLater(operation);
                }
                drains.changed();
              });
    } catch (RuntimeException e) {
      // A closed or failed store: the record stays, as after any failure of its owner.
    }
  }

  /** One of this owner's commands moved the cooldown or the circuit, which every owner must see. */
  void ownChange() {
    watch.refresh();
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
   * report) and the operation's end to the runner's recovery.
   *
   * @param lease the attempt's lease, held by this JVM's owner
   * @param outcome how the attempt ended
   * @param retryAfterMillis the provider's retry-after, 0 for none
   * @param finishes the operation the attempt was the last of, empty for none
   * @return the store's answer
   */
  CompletableFuture<ReportAnswer> reportAsync(
      LeaseRecord lease, ReportedOutcome outcome, long retryAfterMillis, String finishes) {
    handOffs.givenBack(lease);
    return runner
        .submit(
            new PoolCommand.Report(runner.owner(), lease.id(), outcome, retryAfterMillis, finishes))
        .whenComplete((r, e) -> reported(lease, finishes, r, e))
        .exceptionally(
            e -> {
              if (CommandRunner.unwrap(e) instanceof OwnerLostException) {
                return new ReportAnswer(false, false);
              }
              throw e instanceof CompletionException c ? c : new CompletionException(e);
            });
  }

  /**
   * Like {@link #reportAsync}, on this thread, for a caller that waits for the store anyway: no
   * future to build and complete around a command the store may answer at once. {@code readNanos}
   * is the caller's recent reading of the store clock's monotonic time, which the store may take
   * its time from ({@link Requests#NO_READING} for none).
   *
   * @throws dev.sluice.SluiceException the store's failure, as {@link #reportAsync}'s future would
   *     fail
   */
  ReportAnswer report(
      LeaseRecord lease,
      ReportedOutcome outcome,
      long retryAfterMillis,
      String finishes,
      long readNanos) {
    handOffs.givenBack(lease);
    ReportAnswer r;
    try {
      r =
          runner.execute(
              new PoolCommand.Report(
                  runner.owner(), lease.id(), outcome, retryAfterMillis, finishes),
              readNanos);
    } catch (OwnerLostException e) {
      reported(lease, finishes, null, e);
      return new ReportAnswer(false, false);
    } catch (RuntimeException e) {
      reported(lease, finishes, null, e);
      throw e;
    }
    reported(lease, finishes, r, null);
    return r;
  }

  /**
   * After a report's answer {@code r} or failure {@code e}: recovery, drain waits, listeners. A
   * report that did not reach the store is made up as a plain release and, if it was the last of
   * its operation, the operation's end: the outcome is dropped (late evidence is no evidence), the
   * record is not.
   */
  private void reported(LeaseRecord lease, String finishes, ReportAnswer r, Throwable e) {
    if (e != null && CommandRunner.transientFailure(e)) {
      if (!finishes.isEmpty()) {
        runner.finishLater(finishes);
      }
      runner.releaseLater(lease);
    }
    drains.changed();
    if (r != null && r.counted()) {
      // The report may have started or ended a cooldown or moved the circuit.
      watch.refresh();
    }
  }
}
