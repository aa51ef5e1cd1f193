/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.AdmittedTask;
import dev.sluice.LimiterEvent;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

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
    limiter.event(LimiterEvent.Kind.GRANTED, this);
    try {
      executor.execute(this::run);
    } catch (RejectedExecutionException e) {
      if (start()) {
        done();
        limiter.finishRelease(this, null, limiter.rejected(e), future);
      }
    }
  }

  @Override
  void onWithdrawn(WithdrawReason why) {
    limiter.event(LimiterEvent.Kind.WITHDRAWN, this);
    Runnable completion =
        why instanceof WithdrawReason.CallerCompletion caller
            ? caller.action()
            : () -> future.fail(((WithdrawReason.Failure) why).cause());
    limiter.completing(this, completion);
  }

  private void run() {
    if (!start()) {
      return;
    }
    Throwable refusal = limiter.startRefusal(this);
    if (refusal != null) {
      done();
      limiter.finishRelease(this, null, refusal, future);
      return;
    }
    limiter.event(LimiterEvent.Kind.STARTED, this);
    T result = null;
    Throwable failure = null;
    LimiterImpl outer = LimiterImpl.enterCallback(limiter);
    try {
      result = task.run(admission());
    } catch (Throwable e) {
      failure = e;
    } finally {
      LimiterImpl.exitCallback(outer);
    }
    done();
    limiter.finishRelease(this, result, failure, future);
  }
}
