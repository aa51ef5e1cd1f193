/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.AdmittedTask;
import dev.sluice.LimiterClosedException;
import dev.sluice.LimiterEvent;
import dev.sluice.Observation;
import dev.sluice.spi.support.Observed;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;

/**
 * A {@code schedule} request: once granted, its callback runs on the limiter's executor; its future
 * completes after the callback returned and the lease was released.
 */
final class ScheduledTicket<T> extends Ticket {
  private final AdmittedTask<T> task;
  private final LimiterFuture<T> future;
  private final Executor executor;

  ScheduledTicket(
      LimiterImpl limiter,
      long ref,
      long weight,
      long lifetime,
      long deadlineNanos,
      long queueWaitMillis,
      AdmittedTask<T> task,
      LimiterFuture<T> future,
      Executor executor) {
    super(limiter, ref, weight, lifetime, deadlineNanos, queueWaitMillis);
    this.task = task;
    this.future = future;
    this.executor = executor;
  }

  @Override
  void onGranted() {
    limiter.events().send(LimiterEvent.Kind.GRANTED, this);
    try {
      executor.execute(this::run);
    } catch (RejectedExecutionException e) {
      if (start()) {
        done();
        finishRelease(
            null,
            new LimiterClosedException(
                "the callback executor of pool '" + limiter.pool() + "' refused the callback", e));
      }
    }
  }

  @Override
  void onWithdrawn(WithdrawReason why) {
    limiter.events().send(WithdrawReason.eventOf(why), this);
    Runnable completion =
        why instanceof WithdrawReason.CallerCompletion caller
            ? caller.action()
            : () -> future.fail(((WithdrawReason.Failure) why).cause());
    CallbackScope.completing(this, completion);
  }

  private void run() {
    if (!start()) {
      return;
    }
    Throwable refusal = limiter.requests().startRefusal(this);
    if (refusal != null) {
      done();
      finishRelease(null, refusal);
      return;
    }
    limiter.events().send(LimiterEvent.Kind.STARTED, this);
    T result = null;
    Throwable failure = null;
    Observation observation = future.observation();
    Observation.Scope scope = null;
    if (observation != null) {
      Observed.admitted(observation, admission());
      scope = Observed.enter(observation);
    }
    LimiterImpl outer = CallbackScope.enter(limiter);
    try {
      result = task.run(admission());
    } catch (Throwable e) {
      failure = e;
    } finally {
      CallbackScope.exit(outer);
      if (scope != null) {
        Observed.exit(scope);
      }
    }
    done();
    finishRelease(result, failure);
  }

  /**
   * Completes the started request: release, then complete its future, then count it ended. A
   * release answered later, on a store thread, completes the future on the follow-up executor
   * instead, so user continuations never run on a store's thread.
   */
  private void finishRelease(T result, Throwable failure) {
    CompletableFuture<Boolean> release = limiter.shared().releaseAsync(this);
    BiConsumer<Boolean, Throwable> complete =
        (released, releaseFailure) -> {
          try {
            Throwable cleanup = CommandRunner.unwrap(releaseFailure);
            limiter.events().send(LimiterEvent.Kind.RELEASED, this);
            CallbackScope.completing(
                this,
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
            end();
          }
        };
    if (release.isDone()) {
      release.whenComplete(complete);
    } else {
      release.whenCompleteAsync(complete, limiter.requests().followUps());
    }
  }
}
