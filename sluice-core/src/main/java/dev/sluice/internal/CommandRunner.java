/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.BackendFailureException;
import dev.sluice.LimiterClosedException;
import dev.sluice.SluiceException;
import dev.sluice.TimeSource;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolOutcome;
import dev.sluice.spi.PoolSession;
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
 * <p>Thread-safe; {@link #execute} blocks until the store answers.
 */
final class CommandRunner {
  private final String name;
  private final PoolSession session;
  private final Recovery recovery;
  private final Consumer<PoolOutcome<?>> outcomes;
  private final Consumer<BackendFailureException> failWaiting;
  private volatile BackendFailureException failure;
  private volatile boolean detached;

  /**
   * @param outcomes handles every outcome, this runner's and the recovery's
   * @param failWaiting fails every waiting request, on a failure
   */
  CommandRunner(
      String name,
      PoolSession session,
      TimeSource clock,
      Consumer<PoolOutcome<?>> outcomes,
      Consumer<BackendFailureException> failWaiting) {
    this.name = name;
    this.session = session;
    this.outcomes = outcomes;
    this.failWaiting = failWaiting;
    this.recovery = new Recovery(session, clock, outcomes);
  }

  /** Runs a command on this thread and handles its outcome. */
  <T> T execute(PoolCommand<T> command) {
    if (detached) {
      throw detachedException();
    }
    PoolOutcome<T> o;
    try {
      recovery.flush();
      o = session.execute(command);
    } catch (RuntimeException e) {
      throw report(e);
    }
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
      recovery.flush();
      f = session.submit(command);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(report(e));
    }
    return f.handle(
        (o, e) -> {
          if (e != null) {
            throw report(unwrap(e));
          }
          outcomes.accept(o);
          return o.value();
        });
  }

  /**
   * Submits a command after the pending clean-up, leaving its outcome (or failure, never thrown) to
   * the caller.
   */
  <T> CompletableFuture<PoolOutcome<T>> send(PoolCommand<T> command) {
    try {
      recovery.flush();
      return session.submit(command);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Like {@link #send}, without sending the pending clean-up first. */
  <T> CompletableFuture<PoolOutcome<T>> sendAlone(PoolCommand<T> command) {
    try {
      return session.submit(command);
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
    recovery.withdrawLater(ownerRefs);
  }

  /** A lease whose release a transient failure kept from the store: given back later. */
  void releaseLater(LeaseRecord lease) {
    recovery.releaseLater(lease);
  }

  /** Refuses every later command and stops the recovery's retries, as the owner retires. */
  void stop() {
    detached = true;
    recovery.stop();
  }

  /** Retires the store owner, or closes the session if the store cannot. */
  void closeSession() {
    try {
      session.retire();
    } catch (RuntimeException e) {
      // A failed store cannot retire the owner; closing the session still frees this JVM's
      // side, and a store with owner liveness reclaims what the owner held.
      System.getLogger(SharedPool.class.getName())
          .log(System.Logger.Level.WARNING, "pool '" + name + "': retiring the owner failed", e);
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
    if (e instanceof SluiceException refusal && !(e instanceof BackendFailureException)) {
      return refusal;
    }
    BackendFailureException f =
        e instanceof BackendFailureException b
            ? b
            : new BackendFailureException("store of pool '" + name + "' failed: " + e, e);
    if (f.kind() == BackendFailureException.Kind.TRANSIENT) {
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
      failWaiting.accept(f);
    }
    return f;
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
