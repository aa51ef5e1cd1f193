/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import dev.sluice.BackendFailureException;
import dev.sluice.LimiterConfig;
import dev.sluice.OwnerLostException;
import dev.sluice.SluiceException;
import dev.sluice.TimeSource;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolOutcome;
import dev.sluice.spi.PoolSession;
import dev.sluice.spi.PoolStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;

/**
 * Wraps a real store to test how a limiter behaves when its store breaks or its owner dies: {@link
 * #failNext(int)} fails that many commands, then the store works again; {@link #killOwners()}
 * closes the owners opened through it as their process's death would, without retiring them.
 *
 * <p>Thread-safe.
 */
public final class FailingStore implements PoolStore {
  private final PoolStore delegate;
  private final AtomicInteger failures = new AtomicInteger();
  private volatile BackendFailureException.Kind kind = BackendFailureException.Kind.PERMANENT;
  private volatile Class<?> failing = PoolCommand.class;
  private final List<Wrapped> sessions = new CopyOnWriteArrayList<>();
  private final ReentrantLock holdLock = new ReentrantLock();
  private final Condition held = holdLock.newCondition();
  // Guarded by holdLock.
  private boolean holdingWithdrawals;
  private final List<Runnable> heldWithdrawals = new ArrayList<>();
  private boolean holdingAcquires;
  private int heldAcquires;

  /**
   * Wraps a store.
   *
   * @param delegate the real store
   */
  public FailingStore(PoolStore delegate) {
    this.delegate = delegate;
  }

  /**
   * Makes the next {@code n} commands fail with a permanent {@link BackendFailureException}, as a
   * damaged store would.
   */
  public void failNext(int n) {
    kind = BackendFailureException.Kind.PERMANENT;
    failing = PoolCommand.class;
    failures.set(n);
  }

  /**
   * Makes the next {@code n} commands fail with a transient {@link BackendFailureException}, as a
   * lost connection or a restarting server would; then the store answers again.
   */
  public void failNextTransiently(int n) {
    failNextTransiently(n, PoolCommand.class);
  }

  /**
   * Makes the next {@code n} commands of one kind fail with a transient {@link
   * BackendFailureException}; other commands pass meanwhile.
   *
   * @param n how many
   * @param kindOfCommand the kind, such as {@code PoolCommand.Report.class}
   */
  public void failNextTransiently(int n, Class<?> kindOfCommand) {
    kind = BackendFailureException.Kind.TRANSIENT;
    failing = kindOfCommand;
    failures.set(n);
  }

  /**
   * Ends every owner opened through this store as if its process died: each session closes without
   * retiring, so the store must reclaim what the owner held. The limiters on those owners are dead
   * from then on; the test abandons them.
   */
  public void killOwners() {
    for (Wrapped s : sessions) {
      s.session.close();
    }
  }

  /**
   * Declares every owner opened so far through this store dead while its limiter lives, as a server
   * store does when a JVM's heartbeat lapses: the real session closes without retiring, so the
   * store reclaims what the owner held as for a dead process; the limiter is woken, and every later
   * command of that session fails with {@link OwnerLostException}. Sessions opened afterwards (the
   * limiter's next owner) work as usual.
   */
  public void loseOwners() {
    for (Wrapped s : sessions) {
      s.lose();
    }
  }

  /**
   * Holds every withdrawal submitted from now on, unapplied, until {@link #releaseWithdrawals()}: a
   * store whose clean-up of a request is slow, so the request's clean-up outlives its caller.
   */
  public void holdWithdrawals() {
    holdLock.lock();
    try {
      holdingWithdrawals = true;
    } finally {
      holdLock.unlock();
    }
  }

  /**
   * Waits until at least {@code n} withdrawals are held.
   *
   * @param n how many
   * @param safety how long at most
   * @throws InterruptedException if interrupted
   * @throws AssertionError if fewer arrived in time
   */
  public void awaitHeldWithdrawals(int n, Duration safety) throws InterruptedException {
    awaitHeld(() -> heldWithdrawals.size(), n, safety, "withdrawals");
  }

  /**
   * From now on, blocks each thread that hands this store an acquire, before the store takes it,
   * until {@link #releaseAcquires()}: a limiter caught between deciding to make a request and
   * handing it to its store. The session's order is kept: what another thread submits meanwhile
   * reaches the store first, as it would if it had come first.
   */
  public void holdAcquires() {
    holdLock.lock();
    try {
      holdingAcquires = true;
    } finally {
      holdLock.unlock();
    }
  }

  /**
   * Waits until at least {@code n} threads are blocked handing over an acquire.
   *
   * @param n how many
   * @param safety how long at most
   * @throws InterruptedException if interrupted
   * @throws AssertionError if fewer arrived in time
   */
  public void awaitHeldAcquires(int n, Duration safety) throws InterruptedException {
    awaitHeld(() -> heldAcquires, n, safety, "acquires");
  }

  /** Stops holding acquires; the blocked threads hand theirs over. */
  public void releaseAcquires() {
    holdLock.lock();
    try {
      holdingAcquires = false;
      held.signalAll();
    } finally {
      holdLock.unlock();
    }
  }

  private void awaitHeld(IntSupplier count, int n, Duration safety, String what)
      throws InterruptedException {
    long left = safety.toNanos();
    holdLock.lock();
    try {
      while (count.getAsInt() < n) {
        if (left <= 0) {
          throw new AssertionError(
              count.getAsInt() + " " + what + " held after " + safety + ", expected " + n);
        }
        left = held.awaitNanos(left);
      }
    } finally {
      holdLock.unlock();
    }
  }

  /** Blocks while acquires are held, if {@code command} is one; a minute at most. */
  private void holdIfAcquire(PoolCommand<?> command) {
    if (!(command instanceof PoolCommand.Acquire)) {
      return;
    }
    holdLock.lock();
    try {
      if (!holdingAcquires) {
        return;
      }
      heldAcquires++;
      held.signalAll();
      long left = TimeUnit.MINUTES.toNanos(1);
      while (holdingAcquires && left > 0) {
        left = held.awaitNanos(left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      holdLock.unlock();
    }
  }

  /** Stops holding withdrawals and applies the held ones, in the order they came. */
  public void releaseWithdrawals() {
    List<Runnable> release;
    holdLock.lock();
    try {
      holdingWithdrawals = false;
      release = new ArrayList<>(heldWithdrawals);
      heldWithdrawals.clear();
    } finally {
      holdLock.unlock();
    }
    release.forEach(Runnable::run);
  }

  /** Holds {@code command} if it is a withdrawal and withdrawals are held; else null. */
  private <R> CompletableFuture<PoolOutcome<R>> held(PoolSession session, PoolCommand<R> command) {
    if (!(command instanceof PoolCommand.Withdraw)) {
      return null;
    }
    holdLock.lock();
    try {
      if (!holdingWithdrawals) {
        return null;
      }
      CompletableFuture<PoolOutcome<R>> outcome = new CompletableFuture<>();
      heldWithdrawals.add(
          () ->
              session
                  .submit(command)
                  .whenComplete(
                      (o, e) -> {
                        if (e != null) {
                          outcome.completeExceptionally(e);
                        } else {
                          outcome.complete(o);
                        }
                      }));
      held.signalAll();
      return outcome;
    } finally {
      holdLock.unlock();
    }
  }

  private void maybeFail(PoolCommand<?> command) {
    if (failing.isInstance(command) && failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new BackendFailureException("injected failure of " + delegate.poolName(), null, kind);
    }
  }

  @Override
  public String poolName() {
    return delegate.poolName();
  }

  @Override
  public String poolIdentity() {
    return "failing:" + delegate.poolIdentity();
  }

  @Override
  public TimeSource clock() {
    return delegate.clock();
  }

  @Override
  public PoolSession open(LimiterConfig config) {
    Wrapped w = new Wrapped(delegate.open(config));
    sessions.add(w);
    return w;
  }

  /** A real session that injected failures and a declared loss stand in front of. */
  private final class Wrapped implements PoolSession {
    private final PoolSession session;
    private volatile boolean lost;
    private volatile Runnable onChange;

    Wrapped(PoolSession session) {
      this.session = session;
    }

    void lose() {
      if (lost) {
        return;
      }
      lost = true;
      session.close();
      Runnable action = onChange;
      if (action != null) {
        action.run();
      }
    }

    private void check(PoolCommand<?> command) {
      if (lost) {
        throw new OwnerLostException(delegate.poolName(), session.ownerId());
      }
      maybeFail(command);
    }

    @Override
    public String ownerId() {
      return session.ownerId();
    }

    @Override
    public <R> PoolOutcome<R> execute(PoolCommand<R> command) {
      check(command);
      holdIfAcquire(command);
      return session.execute(command);
    }

    @Override
    public <R> CompletableFuture<PoolOutcome<R>> submit(PoolCommand<R> command) {
      try {
        check(command);
      } catch (SluiceException e) {
        return CompletableFuture.failedFuture(e);
      }
      holdIfAcquire(command);
      CompletableFuture<PoolOutcome<R>> held = held(session, command);
      return held != null ? held : session.submit(command);
    }

    @Override
    public void onChange(Runnable onChange) {
      this.onChange = onChange;
      session.onChange(onChange);
    }

    @Override
    public long appliedSequence() {
      return session.appliedSequence();
    }

    @Override
    public void retire() {
      if (lost) {
        return;
      }
      session.retire();
    }

    @Override
    public void close() {
      session.close();
    }
  }
}
