/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.AccountingOverflowException;
import dev.sluice.AdmittedTask;
import dev.sluice.Lease;
import dev.sluice.LeaseExpiredException;
import dev.sluice.Limiter;
import dev.sluice.LimiterClosedException;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterEvent;
import dev.sluice.LimiterListener;
import dev.sluice.LimiterOptions;
import dev.sluice.PoolSnapshot;
import dev.sluice.QueueTimeoutException;
import dev.sluice.ScheduleOptions;
import dev.sluice.SluiceException;
import dev.sluice.TimeSource;
import dev.sluice.spi.PoolState;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One limiter: validates requests, turns them into tickets on the shared pool, runs callbacks, and
 * closes without touching other limiters' work. See {@link Limiter} for the contract.
 */
final class LimiterImpl implements Limiter {
  private static final System.Logger LOG = System.getLogger(Limiter.class.getName());
  private static final ThreadLocal<LimiterImpl> CURRENT = new ThreadLocal<>();
  private static final ThreadLocal<Ticket> COMPLETING = new ThreadLocal<>();
  private static final long NO_DEADLINE = Long.MAX_VALUE;
  private static final int OPEN = 0;
  private static final int CLOSING = 1;
  private static final int DRAINING = 2;

  private final SharedPool pool;
  private final LimiterConfig config;
  private final Executor executor;
  private final Executor followUps;
  private final TimeSource clock;
  private final LimiterListener listener;
  private final DeadlineQueue deadlines;
  private final ScheduleOptions defaultOptions = ScheduleOptions.defaults();
  private final long defaultLifetime;
  private final Set<Ticket> unstarted = ConcurrentHashMap.newKeySet();
  private final AtomicLong inFlight = new AtomicLong();
  private final AtomicBoolean detached = new AtomicBoolean();
  private final CompletableFuture<Void> closed = new CompletableFuture<>();
  private final CompletionStage<Void> closedStage = closed.minimalCompletionStage();
  private volatile int mode = OPEN;

  LimiterImpl(SharedPool pool, LimiterOptions options) {
    this.pool = pool;
    this.config = pool.config();
    this.executor = options.executor().orElse(pool.callbacks());
    this.followUps = this::runFollowUp;
    this.clock = options.clock().orElse(pool.storeClock());
    this.listener = options.listener().orElse(null);
    this.deadlines = new DeadlineQueue(clock);
    this.defaultLifetime = defaultOptions.leaseLifetimeMillis(config);
  }

  SharedPool shared() {
    return pool;
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
    SluiceException refusal = refusal();
    if (refusal != null) {
      return CompletableFuture.failedFuture(refusal);
    }
    long queueWait = options.queueTimeoutMillis();
    LimiterFuture<T> future = new LimiterFuture<>();
    ScheduledTicket<T> t =
        new ScheduledTicket<>(
            this,
            pool.nextRef(),
            options.weight(),
            options.leaseLifetimeMillis(config),
            deadline(queueWait),
            queueWait,
            task,
            future,
            executor);
    future.bind(t);
    if (!admit(t)) {
      return CompletableFuture.failedFuture(closedException());
    }
    unstarted(t, true);
    armDeadline(t, queueWait);
    pool.acquire(t, queueWait, true);
    if (mode == CLOSING) {
      // close() may have listed the unstarted requests before this one joined them.
      t.fail(closedException());
    }
    return future;
  }

  /**
   * Completes a started ticket: release, then complete its future, then count it ended. A release
   * answered later, on a store thread, completes the future on the executor instead, so user
   * continuations never run on a store's thread.
   */
  <T> void finishRelease(Ticket t, T result, Throwable failure, LimiterFuture<T> future) {
    CompletableFuture<Boolean> release = pool.releaseAsync(t.lease());
    java.util.function.BiConsumer<Boolean, Throwable> complete =
        (released, releaseFailure) -> {
          try {
            Throwable cleanup = unwrap(releaseFailure);
            event(LimiterEvent.Kind.RELEASED, t);
            completing(
                t,
                () -> {
                  if (failure != null) {
                    if (cleanup != null) {
                      failure.addSuppressed(cleanup);
                    }
                    future.fail(failure);
                  } else if (cleanup != null) {
                    future.fail(cleanup);
                  } else {
                    future.finish(result);
                  }
                });
          } finally {
            t.end();
          }
        };
    if (release.isDone()) {
      release.whenComplete(complete);
    } else {
      release.whenCompleteAsync(complete, followUps);
    }
  }

  /**
   * Runs {@code completion}, which completes {@code t}'s future. While it runs, a {@code close()}
   * from one of the future's continuations counts {@code t} as ended instead of waiting for it,
   * which would wait for itself.
   */
  void completing(Ticket t, Runnable completion) {
    Ticket outer = COMPLETING.get();
    t.outerCompletion = outer;
    COMPLETING.set(t);
    try {
      completion.run();
    } finally {
      COMPLETING.set(outer);
    }
  }

  /**
   * Runs follow-up work — completing a future, withdrawing at a deadline — on the pool's own
   * callback threads, so user continuations never run on a store or timer thread and never wait
   * behind the user's executor; here if those threads are gone.
   */
  private void runFollowUp(Runnable work) {
    try {
      pool.callbacks().execute(work);
    } catch (RejectedExecutionException e) {
      work.run();
    }
  }

  /** The failure of a callback that its executor refused. */
  LimiterClosedException rejected(RejectedExecutionException e) {
    return new LimiterClosedException(
        "the callback executor of pool '" + pool.name() + "' refused the callback", e);
  }

  // ---- the calling thread

  @Override
  public <T> T call(Callable<T> task) throws Exception {
    Objects.requireNonNull(task, "task");
    BlockingTicket t = acquireBlocking(1, defaultLifetime, -1);
    Throwable failure = null;
    LimiterImpl outer = enterCallback(this);
    try {
      return task.call();
    } catch (Throwable e) {
      failure = e;
      throw e;
    } finally {
      exitCallback(outer);
      t.done();
      try {
        pool.release(t.lease());
        event(LimiterEvent.Kind.RELEASED, t);
      } catch (RuntimeException e) {
        if (failure == null) {
          throw e;
        }
        failure.addSuppressed(e);
      } finally {
        t.end();
      }
    }
  }

  @Override
  public Lease acquire(long weight) throws InterruptedException {
    checkWeight(weight);
    return new HeldLease(acquireBlocking(weight, defaultLifetime, -1));
  }

  @Override
  public Optional<Lease> tryAcquire(long weight) {
    checkWeight(weight);
    try {
      return Optional.of(new HeldLease(acquireBlocking(weight, defaultLifetime, 0)));
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
      return Optional.of(new HeldLease(acquireBlocking(weight, defaultLifetime, waitMillis)));
    } catch (QueueTimeoutException e) {
      return Optional.empty();
    }
  }

  /**
   * Acquires for the calling thread. {@code queueWait}: -1 waits as long as it takes, 0 refuses
   * unless admitted at once (reported as a {@link QueueTimeoutException}), otherwise milliseconds.
   */
  private BlockingTicket acquireBlocking(long weight, long lifetime, long queueWait)
      throws InterruptedException {
    SluiceException refusal = refusal();
    if (refusal != null) {
      throw refusal;
    }
    if (Thread.interrupted()) {
      throw new InterruptedException();
    }
    BlockingTicket t =
        new BlockingTicket(this, pool.nextRef(), weight, lifetime, deadline(queueWait), queueWait);
    if (!admit(t)) {
      throw closedException();
    }
    // Armed before the acquire, so the deadline holds from the request on, however the answer
    // and time interleave; an immediate grant cancels it.
    armDeadline(t, queueWait);
    // With hand-offs a unit may be passed to this request before the store answers its acquire,
    // so the thread waits for whichever comes first.
    pool.acquire(t, queueWait, pool.handsOff() && queueWait != 0);
    if (!(t.state() == TicketState.GRANTED && t.grantDelivered() && t.start())) {
      if (t.state() == TicketState.DONE) {
        throw new QueueTimeoutException(pool.name(), Duration.ZERO);
      }
      // Only a request that waits can be rejected by close(); an immediate grant is running work.
      unstarted(t, true);
      if (mode == CLOSING) {
        t.fail(closedException());
      }
      if (!t.await()) {
        Throwable why = t.withdrawal();
        if (why instanceof SluiceException e) {
          throw e;
        }
        throw new QueueTimeoutException(pool.name(), Duration.ofMillis(Math.max(0, queueWait)));
      }
    }
    Throwable startRefusal = startRefusal(t);
    if (startRefusal != null) {
      t.done();
      try {
        pool.release(t.lease());
      } finally {
        t.end();
      }
      throw (SluiceException) startRefusal;
    }
    event(LimiterEvent.Kind.STARTED, t);
    return t;
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

  // ---- closing

  @Override
  public void close() {
    await(closeAsync());
  }

  @Override
  public void drainAndClose() {
    await(drainAndCloseAsync());
  }

  @Override
  public CompletionStage<Void> closeAsync() {
    return beginClose(CLOSING);
  }

  @Override
  public CompletionStage<Void> drainAndCloseAsync() {
    return beginClose(DRAINING);
  }

  private CompletionStage<Void> beginClose(int requested) {
    if (CURRENT.get() == this) {
      throw new IllegalStateException(
          "a callback of pool '"
              + pool.name()
              + "' cannot close its own limiter: close waits for"
              + " that callback to finish");
    }
    boolean first;
    synchronized (this) {
      first = mode == OPEN;
      if (first) {
        mode = requested;
      }
    }
    if (first) {
      inFlight.incrementAndGet();
      if (requested == CLOSING) {
        rejectUnstarted();
      }
      ended();
    }
    // A close from a continuation of one of this limiter's futures must not wait for the request
    // whose completion is running it: that future is done already.
    for (Ticket t = COMPLETING.get(); t != null; t = t.outerCompletion) {
      if (t.limiter == this) {
        t.end();
      }
    }
    return closedStage;
  }

  /**
   * Withdraws every request that has not started, oldest first, and cleans them up in one
   * transition, so freeing the first cannot grant the next before it is withdrawn too.
   */
  private void rejectUnstarted() {
    WithdrawReason reason = new WithdrawReason.Failure(closedException());
    java.util.List<Ticket> tickets = new java.util.ArrayList<>(unstarted);
    tickets.sort(java.util.Comparator.comparingLong(t -> t.ref));
    java.util.List<Ticket> withdrawn = new java.util.ArrayList<>();
    java.util.Set<Ticket> endedByCleanup = new java.util.HashSet<>();
    java.util.List<Ticket> cleanups = new java.util.ArrayList<>();
    for (Ticket t : tickets) {
      WithdrawResult how = t.withdrawState(reason);
      if (how != WithdrawResult.NOT_WITHDRAWN) {
        withdrawn.add(t);
        if (how == WithdrawResult.END_AFTER_CLEANUP) {
          cleanups.add(t);
          endedByCleanup.add(t);
        }
      }
    }
    CompletableFuture<?> done =
        cleanups.isEmpty() ? CompletableFuture.completedFuture(null) : pool.withdrawAsync(cleanups);
    for (Ticket t : withdrawn) {
      t.notifyWithdrawn();
      if (!endedByCleanup.contains(t)) {
        t.end();
      }
    }
    done.whenComplete(
        (r, e) -> {
          for (Ticket t : endedByCleanup) {
            t.end();
          }
        });
  }

  private void await(CompletionStage<Void> stage) {
    try {
      stage.toCompletableFuture().join();
    } catch (CompletionException e) {
      Throwable cause = unwrap(e);
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw e;
    }
  }

  /** Counts one request as fully ended; the last one lets a closing limiter detach. */
  /** Whether a close (not a drain) has begun: every request that waits will be withdrawn. */
  boolean closing() {
    return mode == CLOSING;
  }

  void ended() {
    if (inFlight.decrementAndGet() == 0 && mode != OPEN && detached.compareAndSet(false, true)) {
      try {
        pool.detach();
        closed.complete(null);
      } catch (RuntimeException e) {
        closed.completeExceptionally(e);
      }
    }
  }

  // ---- helpers

  private boolean admit(Ticket t) {
    inFlight.incrementAndGet();
    if (mode != OPEN) {
      ended();
      return false;
    }
    return true;
  }

  void unstarted(Ticket t, boolean add) {
    if (add) {
      t.tracked = true;
      unstarted.add(t);
      if (!t.state().unstarted()) {
        // Withdrawn or started before it was tracked: its own removal saw nothing to remove.
        unstarted.remove(t);
      }
    } else if (t.tracked) {
      unstarted.remove(t);
    }
  }

  private long deadline(long queueWaitMillis) {
    return queueWaitMillis <= 0
        ? NO_DEADLINE
        : clock.monotonicNanos() + queueWaitMillis * 1_000_000L;
  }

  private void armDeadline(Ticket t, long queueWaitMillis) {
    if (t.deadlineNanos != NO_DEADLINE) {
      Duration timeout = Duration.ofMillis(queueWaitMillis);
      // The withdrawal completes the caller's future, so it runs on the executor, not the timer.
      Runnable expire =
          () -> {
            if (t.fail(new QueueTimeoutException(pool.name(), timeout))) {
              event(LimiterEvent.Kind.TIMED_OUT, t);
            }
          };
      t.deadlineEntry(deadlines.add(t.deadlineNanos, () -> runFollowUp(expire)));
    }
  }

  /** Why a granted request must not start after all, or {@code null} if it may. */
  Throwable startRefusal(Ticket t) {
    long expiresAt = t.lease().expiresAt();
    if (expiresAt != PoolState.NEVER && pool.storeClock().wallMillis() >= expiresAt) {
      event(LimiterEvent.Kind.EXPIRED, t);
      return new LeaseExpiredException(pool.name(), t.admission());
    }
    if (t.deadlineNanos != NO_DEADLINE && clock.monotonicNanos() >= t.deadlineNanos) {
      event(LimiterEvent.Kind.TIMED_OUT, t);
      return new QueueTimeoutException(pool.name(), Duration.ofMillis(t.queueWaitMillis));
    }
    return null;
  }

  private void checkWeight(long weight) {
    if (weight < 1) {
      throw new IllegalArgumentException(
          "weight must be at least 1 (allowed 1.." + maxWeightText() + "), was " + weight);
    }
    long cap = config.maxConcurrentRaw();
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

  private String maxWeightText() {
    long cap = config.maxConcurrentRaw();
    return cap >= 0 ? Long.toString(cap) : Long.toString(Long.MAX_VALUE);
  }

  private SluiceException refusal() {
    if (mode != OPEN) {
      return closedException();
    }
    try {
      pool.checkHealthy();
      return null;
    } catch (SluiceException e) {
      return e;
    }
  }

  private void checkOpen() {
    if (mode != OPEN) {
      throw closedException();
    }
  }

  private LimiterClosedException closedException() {
    return new LimiterClosedException("limiter of pool '" + pool.name() + "' is closed");
  }

  void event(LimiterEvent.Kind kind, Ticket t) {
    if (listener == null) {
      return;
    }
    try {
      listener.onEvent(
          new LimiterEvent(
              kind,
              pool.name(),
              // A pass may give a queued request its unit while QUEUED goes out: not yet its news.
              kind != LimiterEvent.Kind.QUEUED && t.lease() != null ? t.lease().id() : 0,
              t.weight,
              clock.monotonicNanos()));
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "limiter listener failed on " + kind, e);
    }
  }

  /** Marks this thread as running a callback of {@code limiter}; returns the outer mark. */
  static LimiterImpl enterCallback(LimiterImpl limiter) {
    LimiterImpl outer = CURRENT.get();
    CURRENT.set(limiter);
    return outer;
  }

  /**
   * Restores the mark {@link #enterCallback} returned; a nested callback's caller keeps its own.
   */
  static void exitCallback(LimiterImpl outer) {
    // set(null) keeps the thread's map entry, cheaper than remove() on every call.
    CURRENT.set(outer);
  }

  private static Throwable unwrap(Throwable e) {
    return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
  }
}
