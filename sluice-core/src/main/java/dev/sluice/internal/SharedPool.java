/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.Admission;
import dev.sluice.BackendFailureException;
import dev.sluice.LimiterConfig;
import dev.sluice.OwnerLostException;
import dev.sluice.PoolSnapshot;
import dev.sluice.SluiceException;
import dev.sluice.TimeSource;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolOutcome;
import dev.sluice.spi.PoolSession;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.PoolStore;
import dev.sluice.spi.ReportAnswer;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This JVM's one owner of a pool, shared by every limiter on it (see {@link PoolRegistry}): it
 * turns requests, releases and withdrawals into commands. Its parts: the {@link CommandRunner} (the
 * store session and the failure model), the {@link AnswerRouting} (grants and ends to waiting
 * requests), the {@link AcquireSender} (each request's acquire and its answer), the {@link
 * HandOffCoordinator} (units passed inside this JVM), one {@link PoolTimer} for the pool's next
 * useful deadline, and the {@link SyncRequests} that follow other owners' changes.
 *
 * <p>Thread-safe.
 */
final class SharedPool {
  private final String identity;
  private final String name;
  private final LimiterConfig config;
  private final TimeSource storeClock;
  private final ExecutorService callbacks;
  private final AtomicLong refs = new AtomicLong();
  private final CommandRunner runner;
  private final HandOffCoordinator handOffs;
  private final AnswerRouting routing;
  private final PoolTimer timer;
  private final SyncRequests syncs;
  private final AcquireSender acquires;
  private final PoolControl control;

  SharedPool(PoolStore store, LimiterConfig config, PoolSession session) {
    this.identity = store.poolIdentity();
    this.name = store.poolName();
    this.config = config;
    this.storeClock = store.clock();
    this.callbacks = CallbackExecutors.forPool(name);
    // The parts call each other only once the pool is built: the runner and the hand-offs reach
    // the parts made after them through this pool.
    this.runner =
        new CommandRunner(
            store, config, session, this::handle, this::failWaiting, this::onForeignChange);
    this.handOffs =
        new HandOffCoordinator(
            new HandOffs(config.localHandOffs(), runner::owner, storeClock),
            runner,
            this::sendHeld,
            this::withdrawPassed);
    this.timer = new PoolTimer(storeClock, this::onTimer);
    this.routing = new AnswerRouting(name, runner::owner, handOffs, timer);
    this.syncs = new SyncRequests(runner::appliedSequence, this::sendSync);
    this.acquires = new AcquireSender(runner, routing, handOffs, syncs, this::heard);
    this.control = new PoolControl(name, runner, handOffs, storeClock);
  }

  /** Leaves the pool; the last limiter to leave retires the owner and closes the session. */
  void detach() {
    PoolRegistry.detach(this);
  }

  /** Stops every part and retires the owner in the store; the registry calls it once. */
  void retire() {
    control.watch().stop();
    runner.stop();
    timer.stop();
    handOffs.clear();
    callbacks.shutdown();
    runner.closeSession();
  }

  String identity() {
    return identity;
  }

  String name() {
    return name;
  }

  LimiterConfig config() {
    return config;
  }

  TimeSource storeClock() {
    return storeClock;
  }

  ExecutorService callbacks() {
    return callbacks;
  }

  /** The control state: drains, and reports of attempts' outcomes. */
  PoolControl control() {
    return control;
  }

  /** Whether released units may be passed to this JVM's waiting requests. */
  boolean handsOff() {
    return handOffs.enabled();
  }

  long nextRef() {
    return refs.incrementAndGet();
  }

  /** Throws if the store has failed: nothing new is admitted after a failure. */
  void checkHealthy() {
    runner.checkHealthy();
  }

  Admission admission(LeaseRecord l) {
    return new Admission(
        l.id(),
        Instant.ofEpochMilli(l.grantedAt()),
        l.expiresAt() == PoolState.NEVER
            ? Optional.empty()
            : Optional.of(Instant.ofEpochMilli(l.expiresAt())),
        l.weight(),
        l.fencingToken());
  }

  PoolSnapshot inspect() {
    return runner.execute(new PoolCommand.Inspect(runner.owner()));
  }

  OptionalLong currentReservoir() {
    return runner.execute(new PoolCommand.ReadReservoir(runner.owner()));
  }

  OptionalLong incrementReservoir(long delta) {
    return runner.execute(new PoolCommand.IncrementReservoir(runner.owner(), delta));
  }

  // ---- requests

  /** Sends an acquire for a ticket, or holds it in this JVM, and routes the answer to it. */
  void acquire(Ticket t, long queueWaitMillis, boolean async) {
    acquires.acquire(t, queueWaitMillis, async);
  }

  private void sendHeld(Ticket t) {
    acquires.send(t, t.queueWaitMillis, true);
  }

  /**
   * Withdraws requests (or gives back their racing grants) in one command, then passes on or gives
   * back the units that were passed to any of them in this JVM.
   */
  CompletableFuture<?> withdrawAsync(Collection<Ticket> tickets) {
    Set<Long> withdrawn = new HashSet<>(tickets.size() * 2);
    for (Ticket t : tickets) {
      withdrawn.add(t.ref);
    }
    CompletableFuture<?> done = withdraw(withdrawn);
    for (Ticket t : tickets) {
      if (t.heldPassedUnit()) {
        done = CompletableFuture.allOf(done, releaseAsync(t.lease()));
      }
    }
    return done;
  }

  /** Withdraws requests; what a transient failure keeps from the store is taken back later. */
  private CompletableFuture<Integer> withdraw(Set<Long> ownerRefs) {
    return runner
        .submit(new PoolCommand.Withdraw(runner.owner(), ownerRefs))
        .whenComplete(
            (n, e) -> {
              if (e != null && CommandRunner.transientFailure(e)) {
                runner.withdrawLater(ownerRefs);
              }
              control.changed();
            });
  }

  /**
   * Releases a lease, or passes its unit on, and waits for the store to apply a release. A lease of
   * an owner the store declared dead went back to the pool with it: there is nothing to release.
   */
  void release(LeaseRecord lease) {
    release(lease, Requests.NO_READING);
  }

  /**
   * Like {@link #release(LeaseRecord)}, with the caller's recent reading of the store clock's
   * monotonic time ({@link Requests#NO_READING} for none), which the store may take its time from.
   */
  void release(LeaseRecord lease, long readNanos) {
    if (!handOffs.passed(lease)) {
      try {
        runner.execute(new PoolCommand.Release(runner.owner(), lease.id()), readNanos);
      } catch (OwnerLostException e) {
        // Reclaimed with the lost owner; the runner went on as a new one.
      } catch (BackendFailureException e) {
        if (e.kind() == BackendFailureException.Kind.TRANSIENT) {
          runner.releaseLater(lease);
        }
        throw e;
      } finally {
        // A drain may wait for this lease.
        control.changed();
      }
    }
  }

  /**
   * Releases a started request's lease: with the report of its attempt's outcome if managed
   * execution set one ({@link Ticket#reportOutcome}), else as {@link #releaseAsync(LeaseRecord)}.
   */
  CompletableFuture<Boolean> releaseAsync(Ticket t) {
    if (!t.hasOutcome()) {
      return releaseAsync(t.lease());
    }
    return control
        .reportAsync(t.lease(), t.outcome(), t.retryAfterMillis(), t.finishes)
        .thenApply(r -> r.released());
  }

  /** Like {@link #releaseAsync(Ticket)}, waiting for the store. */
  void release(Ticket t) {
    release(t, Requests.NO_READING);
  }

  /** Like {@link #release(Ticket)}, with a reading as {@link #release(LeaseRecord, long)}'s. */
  void release(Ticket t, long readNanos) {
    if (!t.hasOutcome()) {
      release(t.lease(), readNanos);
      return;
    }
    control.report(t.lease(), t.outcome(), t.retryAfterMillis(), t.finishes, readNanos);
  }

  /** Releases a lease, or passes its unit on, without waiting. */
  CompletableFuture<Boolean> releaseAsync(LeaseRecord lease) {
    if (handOffs.passed(lease)) {
      return CompletableFuture.completedFuture(true);
    }
    return runner
        .submit(new PoolCommand.Release(runner.owner(), lease.id()))
        .whenComplete(
            (r, e) -> {
              if (e != null && CommandRunner.transientFailure(e)) {
                runner.releaseLater(lease);
              }
              control.changed();
            })
        .exceptionally(
            e -> {
              if (CommandRunner.unwrap(e) instanceof OwnerLostException) {
                return false; // reclaimed with the lost owner: nothing to release
              }
              throw e instanceof CompletionException c ? c : new CompletionException(e);
            });
  }

  /** Takes a request that was passed a unit out of the store's queue, or gives back its grant. */
  private void withdrawPassed(Ticket t) {
    // Out of the waiting requests first: it holds a unit, so a store failure must not fail it,
    // and a grant that raced the pass finds no request and is given back by this withdrawal.
    routing.unregister(t);
    withdraw(Set.of(t.ref));
  }

  /** A request's acquire was answered "queued": from now on it may be passed a unit. */
  void queuedAtPool(Ticket t) {
    handOffs.queued(t);
  }

  void forget(Ticket t) {
    routing.unregister(t);
    handOffs.left(t.ref);
    handOffs.sendHeld();
  }

  private void handle(PoolOutcome<?> o) {
    routing.handle(o);
    heard(o);
  }

  /**
   * After the outcome of this owner's own command: if it changed what every owner must look at (a
   * probe released without a report reopened the circuit, a settle moved the pause, a drain
   * progressed), this JVM's listeners hear of it as other owners do, without waiting for another
   * read. A report's own answer already says whether it counted, and its caller refreshes then.
   */
  private void heard(PoolOutcome<?> o) {
    if (o.concernsEveryone() && !(o.value() instanceof ReportAnswer) && control != null) {
      control.ownChange();
    }
  }

  private void failWaiting(SluiceException f) {
    routing.failWaiting(f);
    if (f instanceof OwnerLostException) {
      // The units it would pass came from the lost owner's leases, which the store took back.
      handOffs.clear();
    }
  }

  // ---- the pool's own wakes

  private void onTimer() {
    if (!runner.stopped()) {
      runner.submit(new PoolCommand.Tick(runner.owner()));
    }
  }

  /** Another owner may have changed the pool: ask what became of the queued requests. */
  void onForeignChange() {
    if (!runner.stopped()) {
      control.foreignChange();
    }
    if (runner.stopped() || routing.idle()) {
      return;
    }
    syncs.woken();
  }

  /** Asks the store what became of every request whose queue entry this JVM knows. */
  private void sendSync() {
    runner
        .sendAlone(new PoolCommand.Sync(runner.owner(), routing.queuedRequests()))
        .whenComplete(
            (o, e) -> {
              if (e != null) {
                syncs.answered(-1);
                runner.report(CommandRunner.unwrap(e));
              } else {
                routing.handle(o);
                heard(o);
                syncs.answered(o.sequence());
              }
            });
  }
}
