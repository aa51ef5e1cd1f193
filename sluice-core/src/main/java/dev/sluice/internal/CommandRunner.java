/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.BackendFailureException;
import dev.sluice.LimiterClosedException;
import dev.sluice.LimiterConfig;
import dev.sluice.OwnerLostException;
import dev.sluice.SluiceException;
import dev.sluice.TimeSource;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolOutcome;
import dev.sluice.spi.PoolSession;
import dev.sluice.spi.PoolStore;
import dev.sluice.spi.support.Log;
import dev.sluice.spi.support.Logs;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

/**
 * Runs this JVM's commands on a pool's store session, and owns the failure model. Before each
 * command it sends what the {@link Recovery} still has to take back, so the store applies that
 * first; every outcome goes to the outcome handler. A transient failure fails the waiting requests
 * and leaves the pool usable; any other failure stops it for good (nothing new is admitted, and
 * releases still go to the store). After the owner retired, only a late clean-up can arrive, and it
 * is refused.
 *
 * <p>When the store declares this owner dead while it lives ({@link OwnerLostException}), the
 * runner opens a new session on the pool, so the JVM goes on as a new owner, drops what its
 * recovery still had to take back (the store reclaimed all of it), and tells the pool, which fails
 * the requests that waited under the lost owner.
 *
 * <p>Thread-safe; {@link #execute} blocks until the store answers.
 */
final class CommandRunner {
  /** The owner this JVM is now: its session, its id and what its recovery still has to send. */
  private record Binding(PoolSession session, String owner, Recovery recovery) {}

  private static final Log LOG = Logs.of(CommandRunner.class);

  private final String name;
  private final PoolStore store;
  private final LimiterConfig config;
  private final TimeSource clock;
  private final Consumer<PoolOutcome<?>> outcomes;
  private final Consumer<SluiceException> failWaiting;
  private final Runnable onChange;
  private volatile Binding binding;
  private volatile BackendFailureException failure;
  private volatile boolean detached;
  // Set by the first transient failure of a streak, cleared (and logged) by the next success.
  private volatile boolean degraded;

  /**
   * @param store where a new session is opened when the owner is lost
   * @param outcomes handles every outcome, this runner's and the recovery's
   * @param failWaiting fails every waiting request, on a failure or a lost owner
   * @param onChange what a session calls when another owner changed the pool
   */
  CommandRunner(
      PoolStore store,
      LimiterConfig config,
      PoolSession session,
      Consumer<PoolOutcome<?>> outcomes,
      Consumer<SluiceException> failWaiting,
      Runnable onChange) {
    this.name = store.poolName();
    this.store = store;
    this.config = config;
    this.clock = store.clock();
    this.outcomes = outcomes;
    this.failWaiting = failWaiting;
    this.onChange = onChange;
    this.binding = bind(session);
  }

  private Binding bind(PoolSession session) {
    return new Binding(session, session.ownerId(), new Recovery(session, clock, outcomes));
  }

  /** The id of the owner this JVM is now. */
  String owner() {
    return binding.owner();
  }

  /** The sequence of the last command the store applied; see {@link PoolSession}. */
  long appliedSequence() {
    return binding.session().appliedSequence();
  }

  /** Runs a command on this thread and handles its outcome. */
  <T> T execute(PoolCommand<T> command) {
    return execute(command, Requests.NO_READING);
  }

  /**
   * Like {@link #execute(PoolCommand)}, with the caller's recent reading of the store clock's
   * monotonic time ({@link Requests#NO_READING} for none), which the store may take its time from.
   */
  <T> T execute(PoolCommand<T> command, long readNanos) {
    if (detached) {
      throw detachedException();
    }
    PoolOutcome<T> o;
    try {
      Binding b = binding;
      b.recovery().flush();
      PoolSession session = b.session();
      o =
          readNanos == Requests.NO_READING
              ? session.execute(command)
              : session.execute(command, readNanos);
    } catch (RuntimeException e) {
      throw report(e);
    }
    answered();
    outcomes.accept(o);
    return o.value();
  }

  /** Submits a command and handles its outcome when it arrives. */
  <T> CompletableFuture<T> submit(PoolCommand<T> command) {
    if (detached) {
      // Only a clean-up can arrive this late; retiring the owner already removed what it held.
      return CompletableFuture.failedFuture(detachedException());
    }
    CompletableFuture<PoolOutcome<T>> f;
    try {
      Binding b = binding;
      b.recovery().flush();
      f = b.session().submit(command);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(report(e));
    }
    return f.handle(
        (o, e) -> {
          if (e != null) {
            throw report(unwrap(e));
          }
          answered();
          outcomes.accept(o);
          return o.value();
        });
  }

  /**
   * Submits a command after the pending clean-up, leaving its outcome (or failure, never thrown) to
   * the caller.
   */
  <T> CompletableFuture<PoolOutcome<T>> send(PoolCommand<T> command) {
    return send(command, Requests.NO_READING);
  }

  /** Like {@link #send(PoolCommand)}, with a reading as {@link #execute(PoolCommand, long)}'s. */
  <T> CompletableFuture<PoolOutcome<T>> send(PoolCommand<T> command, long readNanos) {
    try {
      Binding b = binding;
      b.recovery().flush();
      PoolSession session = b.session();
      return readNanos == Requests.NO_READING
          ? session.submit(command)
          : session.submit(command, readNanos);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Like {@link #send}, without sending the pending clean-up first. */
  <T> CompletableFuture<PoolOutcome<T>> sendAlone(PoolCommand<T> command) {
    try {
      return binding.session().submit(command);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** The failure that stopped the pool, or {@code null}. */
  BackendFailureException failure() {
    return failure;
  }

  /** Whether the pool takes no new work: stopped by a failure, or its owner retired. */
  boolean stopped() {
    return failure != null || detached;
  }

  /** Throws if the store has failed: nothing new is admitted after a failure. */
  void checkHealthy() {
    BackendFailureException f = failure;
    if (f != null) {
      throw new BackendFailureException("pool '" + name + "' stopped after a store failure", f);
    }
  }

  /** Requests whose withdrawal a transient failure kept from the store: taken back later. */
  void withdrawLater(Collection<Long> ownerRefs) {
    binding.recovery().withdrawLater(ownerRefs);
  }

  /** A lease whose release a transient failure kept from the store: given back later. */
  void releaseLater(LeaseRecord lease) {
    binding.recovery().releaseLater(lease);
  }

  /** Sends the end of {@code operation} once the store answers again (see {@link Recovery}). */
  void finishLater(String operation) {
    binding.recovery().finishLater(operation);
  }

  /** Refuses every later command and stops the recovery's retries, as the owner retires. */
  void stop() {
    detached = true;
    binding.recovery().stop();
  }

  /** Retires the store owner, or closes the session if the store cannot. */
  void closeSession() {
    PoolSession session = binding.session();
    try {
      session.retire();
    } catch (RuntimeException e) {
      // A failed store cannot retire the owner; closing the session still frees this JVM's
      // side, and a store with owner liveness reclaims what the owner held.
      LOG.warn("pool '{}': retiring owner {} failed; closing its session", name, owner(), e);
      session.close();
    }
  }

  /**
   * Turns a store error into the exception to report. A {@link SluiceException} other than a
   * backend failure is a refusal, reported as it is. A transient failure fails every waiting
   * request and leaves the pool usable (the requests' withdrawals, or the {@link Recovery} after
   * them, take back what they left in the store); anything else stops the pool.
   */
  SluiceException report(Throwable e) {
    if (e instanceof OwnerLostException lost) {
      ownerLost(lost);
      return lost;
    }
    if (e instanceof SluiceException refusal && !(e instanceof BackendFailureException)) {
      return refusal;
    }
    BackendFailureException f =
        e instanceof BackendFailureException b
            ? b
            : new BackendFailureException("store of pool '" + name + "' failed: " + e, e);
    if (f.kind() == BackendFailureException.Kind.TRANSIENT) {
      if (!degraded) {
        degraded = true;
        LOG.warn(
            "pool '{}': the store failed; waiting requests fail and the pool goes on: {}", name, f);
      }
      failWaiting.accept(f);
      return f;
    }
    boolean first;
    synchronized (this) {
      first = failure == null;
      if (first) {
        failure = f;
      }
    }
    if (first) {
      LOG.error("pool '{}': the store failed for good; the pool admits nothing more", name, f);
      failWaiting.accept(f);
    }
    return f;
  }

  /** The store answered: ends a streak of transient failures. */
  private void answered() {
    if (degraded) {
      degraded = false;
      LOG.info("pool '{}': the store answers again", name);
    }
  }

  /**
   * Goes on as a new owner once the store declared this one dead: opens a new session (or, if the
   * store cannot be reached now, keeps the lost one, whose next command reports the loss again),
   * drops the lost owner's recovery, and fails the requests that waited under it. Once per lost
   * owner, however many of its commands report the loss.
   */
  private void ownerLost(OwnerLostException lost) {
    Binding old;
    synchronized (this) {
      old = binding;
      if (!old.owner().equals(lost.owner()) || detached) {
        return;
      }
      old.recovery().stop();
      try {
        PoolSession next = store.open(config);
        binding = bind(next);
        next.onChange(onChange);
      } catch (RuntimeException e) {
        LOG.error("pool '{}': cannot register a new owner after losing {}", name, old.owner(), e);
      }
    }
    LOG.warn(
        "pool '{}': the store declared owner {} dead while it lived (a pause longer than the"
            + " heartbeat timeout?); its leases were reclaimed, its waiting requests fail, and it"
            + " goes on as owner {}",
        name,
        old.owner(),
        binding.owner());
    failWaiting.accept(lost);
    if (binding != old) {
      old.session().close();
    }
  }

  /** Whether {@code e} (perhaps wrapped by a future) is a transient store failure. */
  static boolean transientFailure(Throwable e) {
    return unwrap(e) instanceof BackendFailureException b
        && b.kind() == BackendFailureException.Kind.TRANSIENT;
  }

  /** The cause a future wrapped, or {@code e}. */
  static Throwable unwrap(Throwable e) {
    return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
  }

  private LimiterClosedException detachedException() {
    return new LimiterClosedException("every limiter of pool '" + name + "' is closed");
  }
}
