/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.AdmittedTask;
import dev.sluice.LeaseExpiredException;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterEvent;
import dev.sluice.Observation;
import dev.sluice.QueueTimeoutException;
import dev.sluice.ScheduleOptions;
import dev.sluice.SluiceException;
import dev.sluice.TimeSource;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.support.Observed;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Turns a limiter's validated requests into tickets on its shared pool: counts each in, arms its
 * queue deadline, sends it, and for the calling-thread forms waits for it and decides whether the
 * grant may still start.
 *
 * <p>Thread-safe; the calling-thread forms block until granted, withdrawn or interrupted.
 */
final class Requests {
  private static final long NO_DEADLINE = Long.MAX_VALUE;

  /** A clock reading not taken. */
  static final long NO_READING = Long.MIN_VALUE;

  private final LimiterImpl limiter;
  private final SharedPool pool;
  private final LimiterConfig config;
  private final Executor executor;
  private final Executor followUps;
  private final TimeSource clock;
  private final DeadlineQueue deadlines;
  private final AttemptWatch attemptWatch;
  private final CloseLifecycle lifecycle;
  private final LimiterEvents events;

  /**
   * Whether this limiter's clock is its store's: then a reading taken here may serve the store as
   * its time too ({@link dev.sluice.spi.PoolSession#execute(dev.sluice.spi.PoolCommand, long)}).
   */
  private final boolean storeClock;

  Requests(
      LimiterImpl limiter,
      SharedPool pool,
      Executor executor,
      TimeSource clock,
      CloseLifecycle lifecycle,
      LimiterEvents events) {
    this.limiter = limiter;
    this.pool = pool;
    this.config = pool.config();
    this.executor = executor;
    this.followUps = this::runFollowUp;
    this.clock = clock;
    this.deadlines = new DeadlineQueue(clock);
    this.attemptWatch = new AttemptWatch(clock);
    this.lifecycle = lifecycle;
    this.events = events;
    this.storeClock = clock == pool.storeClock();
  }

  /** Why a new request is refused at once (closed, or the store failed), or {@code null}. */
  SluiceException refusal() {
    if (!lifecycle.open()) {
      return lifecycle.closedException();
    }
    return healthRefusal();
  }

  /** Why the store refuses new requests (it failed), or {@code null}. */
  SluiceException healthRefusal() {
    try {
      pool.checkHealthy();
      return null;
    } catch (SluiceException e) {
      return e;
    }
  }

  /** Schedules a validated request whose callback runs on the executor. */
  <T> CompletableFuture<T> schedule(AdmittedTask<T> task, ScheduleOptions options) {
    return schedule(task, options, false);
  }

  /** Like {@link #schedule(AdmittedTask, ScheduleOptions)}, observed when given an observation. */
  <T> CompletableFuture<T> schedule(
      AdmittedTask<T> task, ScheduleOptions options, Observation observation) {
    return schedule(task, options, false, null, observation);
  }

  /**
   * Schedules a validated request; a {@code continuation} (a later attempt of an accepted managed
   * execution) is refused by a close but not by a drain.
   */
  <T> CompletableFuture<T> schedule(
      AdmittedTask<T> task, ScheduleOptions options, boolean continuation) {
    return schedule(task, options, continuation, null, null);
  }

  /**
   * Schedules one attempt of a managed execution: a later attempt continues accepted work (see
   * {@link #schedule(AdmittedTask, ScheduleOptions, boolean)}), and the attempt learns its ticket,
   * through which it reports its outcome with the release.
   */
  <T> CompletableFuture<T> scheduleAttempt(
      AdmittedTask<T> task, ScheduleOptions options, AttemptContext<?> attempt) {
    return schedule(task, options, attempt.attempt() > 1, attempt, attempt.observation);
  }

  private <T> CompletableFuture<T> schedule(
      AdmittedTask<T> task,
      ScheduleOptions options,
      boolean continuation,
      AttemptContext<?> attempt,
      Observation observation) {
    SluiceException refusal = continuation ? healthRefusal() : refusal();
    if (refusal != null) {
      return refused(refusal, observation);
    }
    long queueWait = options.queueTimeoutMillis();
    LimiterFuture<T> future = new LimiterFuture<>();
    ScheduledTicket<T> t =
        new ScheduledTicket<>(
            limiter,
            pool.nextRef(),
            options.weight(),
            options.leaseLifetimeMillis(config),
            deadline(queueWait),
            queueWait,
            task,
            future,
            executor);
    t.failFast = options.circuitFailFast();
    t.continuing = continuation;
    if (attempt != null) {
      attempt.ticket = t;
      t.operation = attempt.operationId();
    }
    future.bind(t);
    future.observe(observation);
    if (!(continuation ? lifecycle.admitContinuation() : lifecycle.admit())) {
      return refused(lifecycle.closedException(), observation);
    }
    lifecycle.track(t);
    pool.acquire(t, queueWait, true);
    armDeadline(t, queueWait);
    if (lifecycle.closing()) {
      // close() may have listed the unstarted requests before this one joined them.
      t.fail(lifecycle.closedException());
    }
    return future;
  }

  private static <T> CompletableFuture<T> refused(Throwable why, Observation observation) {
    Observed.end(observation, why);
    return CompletableFuture.failedFuture(why);
  }

  /** Runs {@code task} on the calling thread once admitted with weight 1, then releases. */
  <T> T call(Callable<T> task, long lifetime) throws Exception {
    return runHeld(acquireBlocking(1, lifetime, -1), task);
  }

  /** Runs {@code task} on the calling thread while {@code t} holds its lease, then releases. */
  <T> T runHeld(BlockingTicket t, Callable<T> task) throws Exception {
    Throwable failure = null;
    LimiterImpl outer = CallbackScope.enter(limiter);
    try {
      return task.call();
    } catch (Throwable e) {
      failure = e;
      throw e;
    } finally {
      released(t, outer, failure);
    }
  }

  /**
   * Like {@link #runHeld} for one attempt of a blocking managed execution, which {@code t} admitted
   * and which started at {@code startedNanos}: the same steps without a callable made per call.
   */
  <T> void runAttempt(
      BlockingTicket t,
      AttemptRunner<T> runner,
      AttemptContext<T> a,
      long startedNanos,
      boolean readEnd) {
    Throwable failure = null;
    LimiterImpl outer = CallbackScope.enter(limiter);
    try {
      runner.run(a, t, startedNanos);
    } catch (Throwable e) {
      failure = e;
      throw e;
    } finally {
      if (readEnd || storeClock) {
        // One reading for the caller's deadline and the store's time of the release.
        t.endNanos = clock.monotonicNanos();
      }
      released(t, outer, failure);
    }
  }

  /** After a held task: leaves its scope, releases its lease and counts it out. */
  private void released(BlockingTicket t, LimiterImpl outer, Throwable failure) {
    CallbackScope.exit(outer);
    t.done();
    try {
      pool.release(t, storeClock ? t.endNanos : NO_READING);
      events.send(LimiterEvent.Kind.RELEASED, t);
    } catch (RuntimeException e) {
      if (failure == null) {
        throw e;
      }
      failure.addSuppressed(e);
    } finally {
      t.end();
    }
  }

  /**
   * Acquires for the calling thread. {@code queueWait}: -1 waits as long as it takes, 0 refuses
   * unless admitted at once (reported as a {@link QueueTimeoutException}), otherwise milliseconds.
   */
  BlockingTicket acquireBlocking(long weight, long lifetime, long queueWait)
      throws InterruptedException {
    return acquireBlocking(weight, lifetime, queueWait, false);
  }

  /**
   * Like {@link #acquireBlocking(long, long, long)}; a {@code continuation} (a later attempt of an
   * accepted managed execution) is refused by a close but not by a drain.
   */
  BlockingTicket acquireBlocking(long weight, long lifetime, long queueWait, boolean continuation)
      throws InterruptedException {
    return acquireBlocking(weight, lifetime, queueWait, continuation, null);
  }

  /**
   * Acquires for one attempt of a blocking managed execution, which learns its ticket before the
   * acquire leaves; see {@link #acquireBlocking(long, long, long, boolean)}.
   */
  BlockingTicket acquireAttempt(
      long weight,
      long lifetime,
      long queueWait,
      long nowNanos,
      boolean failFast,
      AttemptContext<?> attempt)
      throws InterruptedException {
    return acquireBlocking(
        weight, lifetime, queueWait, nowNanos, attempt.attempt() > 1, attempt, failFast);
  }

  private BlockingTicket acquireBlocking(
      long weight, long lifetime, long queueWait, boolean continuation, AttemptContext<?> attempt)
      throws InterruptedException {
    return acquireBlocking(weight, lifetime, queueWait, NO_READING, continuation, attempt, false);
  }

  /**
   * The acquire behind every blocking form. {@code nowNanos} is the caller's clock reading that
   * {@code queueWait} was computed from, or {@link #NO_READING}: the clock is read often on this
   * path, and each reading costs tens of nanoseconds on a virtual machine.
   */
  private BlockingTicket acquireBlocking(
      long weight,
      long lifetime,
      long queueWait,
      long nowNanos,
      boolean continuation,
      AttemptContext<?> attempt,
      boolean failFast)
      throws InterruptedException {
    SluiceException refusal = continuation ? healthRefusal() : refusal();
    if (refusal != null) {
      throw refusal;
    }
    if (Thread.interrupted()) {
      throw new InterruptedException();
    }
    BlockingTicket t =
        new BlockingTicket(
            limiter, pool.nextRef(), weight, lifetime, deadline(queueWait, nowNanos), queueWait);
    t.continuing = continuation;
    t.failFast = failFast;
    if (storeClock) {
      t.acquireReadNanos = nowNanos;
    }
    // An attempt of a blocking call runs inside its execution, which is counted in: it borrows
    // that count (TicketCore#borrowCount) and only asks whether the limiter still takes it. Two
    // read-modify-writes fewer per call, on the one counter every caller of the limiter shares.
    if (attempt != null
        ? !(continuation ? lifecycle.takesContinuations() : lifecycle.open())
        : !(continuation ? lifecycle.admitContinuation() : lifecycle.admit())) {
      throw lifecycle.closedException();
    }
    if (attempt != null) {
      t.borrowCount();
      attempt.ticket = t;
      t.operation = attempt.operationId();
    }
    // With hand-offs a unit may be passed to this request before the store answers its acquire,
    // so the thread waits for whichever comes first.
    pool.acquire(t, queueWait, pool.handsOff() && queueWait != 0);
    armDeadline(t, queueWait);
    if (!(t.state() == TicketState.GRANTED && t.grantDelivered() && t.start())) {
      waitForGrant(t, queueWait);
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
    events.send(LimiterEvent.Kind.STARTED, t);
    return t;
  }

  /** Waits for a request that was not granted at once; throws if it is withdrawn instead. */
  private void waitForGrant(BlockingTicket t, long queueWait) throws InterruptedException {
    if (t.state() == TicketState.DONE) {
      throw new QueueTimeoutException(pool.name(), Duration.ZERO);
    }
    // Only a request that waits can be rejected by close(); an immediate grant is running work.
    lifecycle.track(t);
    if (lifecycle.closing()) {
      t.fail(lifecycle.closedException());
    }
    if (!t.await()) {
      Throwable why = t.withdrawal();
      if (why instanceof SluiceException e) {
        throw e;
      }
      throw new QueueTimeoutException(pool.name(), Duration.ofMillis(Math.max(0, queueWait)));
    }
  }

  /** Why a granted request must not start after all, or {@code null} if it may. */
  Throwable startRefusal(Ticket t) {
    long expiresAt = t.lease().expiresAt();
    if (expiresAt != PoolState.NEVER && pool.storeClock().wallMillis() >= expiresAt) {
      events.send(LimiterEvent.Kind.EXPIRED, t);
      return new LeaseExpiredException(pool.name(), t.admission());
    }
    if (t.deadlineNanos != NO_DEADLINE) {
      // Kept: a blocking caller's attempt starts at this reading and needs none of its own. A grant
      // applied at the request's own reading without a wait was made then: no new reading.
      t.startNanos =
          t.grantedAtReading && t.acquireReadNanos != NO_READING
              ? t.acquireReadNanos
              : clock.monotonicNanos();
      if (t.startNanos >= t.deadlineNanos) {
        events.send(LimiterEvent.Kind.TIMED_OUT, t);
        return new QueueTimeoutException(pool.name(), Duration.ofMillis(t.queueWaitMillis));
      }
    }
    return null;
  }

  /**
   * Where follow-up work runs — completing a future, withdrawing at a deadline: on the pool's own
   * callback threads, so user continuations never run on a store or timer thread and never wait
   * behind the user's executor; on the submitting thread if those threads are gone.
   */
  Executor followUps() {
    return followUps;
  }

  /** The clock of this limiter's local waits and timers. */
  TimeSource clock() {
    return clock;
  }

  /** This limiter's local deadlines, one lazily armed timer for all of them. */
  DeadlineQueue deadlines() {
    return deadlines;
  }

  /** Where this limiter's running attempts wait to be cut short by a timeout or deadline. */
  AttemptWatch attemptWatch() {
    return attemptWatch;
  }

  private void runFollowUp(Runnable work) {
    try {
      pool.callbacks().execute(work);
    } catch (RejectedExecutionException e) {
      work.run();
    }
  }

  private long deadline(long queueWaitMillis) {
    return deadline(queueWaitMillis, NO_READING);
  }

  private long deadline(long queueWaitMillis, long nowNanos) {
    if (queueWaitMillis <= 0) {
      return NO_DEADLINE;
    }
    return (nowNanos == NO_READING ? clock.monotonicNanos() : nowNanos)
        + queueWaitMillis * 1_000_000L;
  }

  /**
   * Arms a request's queue deadline once its acquire left, unless it was decided already (an
   * immediate grant needs no timer). The deadline was fixed when the request was made, so it holds
   * from then on however late it is armed; a grant or withdrawal that races the arming cancels it
   * (see {@link TicketCore#deadlineEntry}).
   */
  private void armDeadline(Ticket t, long queueWaitMillis) {
    if (t.deadlineNanos != NO_DEADLINE && t.state().waiting()) {
      Duration timeout = Duration.ofMillis(queueWaitMillis);
      // The withdrawal completes the caller's future, so it runs on the executor, not the timer.
      Runnable expire =
          () -> {
            if (t.fail(new QueueTimeoutException(pool.name(), timeout))) {
              events.send(LimiterEvent.Kind.TIMED_OUT, t);
            }
          };
      t.deadlineEntry(deadlines.add(t.deadlineNanos, () -> runFollowUp(expire)));
    }
  }
}
