/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.AttemptClassifier;
import dev.sluice.AttemptTimeoutException;
import dev.sluice.ExecuteOptions;
import dev.sluice.ExecutionContext;
import dev.sluice.ExecutionTimeoutException;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.QueueTimeoutException;
import dev.sluice.ScheduleOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The blocking {@code call(task, options)}: its attempts run on the calling thread, the delays
 * between them are waited on that thread by the limiter's clock, and a timeout or deadline that
 * passes while the task runs cancels the attempt at once but answers when the task returns.
 */
public abstract class BlockingExecutionCases extends ConformanceCase {
  /**
   * Creates the cases.
   *
   * @param stores the store under test
   */
  protected BlockingExecutionCases(StoreFactory stores) {
    super(stores);
  }

  /** Runs {@code limiter.call(task, options)} on a thread of its own; its outcome completes. */
  private static <T> CompletableFuture<T> callOnThread(
      Limiter limiter, dev.sluice.ExecutionTask<T> task, ExecuteOptions options) {
    CompletableFuture<T> outcome = new CompletableFuture<>();
    Thread caller =
        new Thread(
            () -> {
              try {
                outcome.complete(limiter.call(task, options));
              } catch (Throwable e) {
                outcome.completeExceptionally(e);
              }
            },
            "blocking-caller");
    caller.start();
    return outcome;
  }

  /**
   * An attempt withdrawn at its queue deadline ends when the store has taken its request back. The
   * call answers at once, before that clean-up; the attempt holds the limiter open for it, so a
   * close waits until the store has applied the withdrawal and leaves nothing behind.
   */
  @Test
  void aCloseWaitsForTheCleanUpOfACallsAttemptThatTimedOutInTheQueue() throws Exception {
    FailingStore slowCleanUp = new FailingStore(store());
    Limiter limiter = track(Limiter.open(slowCleanUp, cap(1)));
    Limiter other = openSecondOwner(cap(1));
    Lease holder = other.acquire(1);
    slowCleanUp.holdWithdrawals();
    ExecuteOptions options =
        ExecuteOptions.builder()
            .schedule(ScheduleOptions.builder().queueTimeout(Duration.ofMillis(10)).build())
            .build();
    long start = clock.monotonicNanos();
    CompletableFuture<String> f = callOnThread(limiter, ctx -> "ran", options);
    clock.awaitTimerDue(start + 10_000_000L, start + 11_000_000L, SAFETY);
    assertThat(f).as("the caller waits in the queue").isNotDone();
    clock.advance(Duration.ofMillis(10));
    assertThat(awaitFailure(f)).isInstanceOf(QueueTimeoutException.class);
    slowCleanUp.awaitHeldWithdrawals(1, SAFETY);

    CompletionStage<Void> closing = limiter.closeAsync();
    assertThat(closing.toCompletableFuture()).as("the clean-up is still out").isNotDone();
    slowCleanUp.releaseWithdrawals();
    await(closing.toCompletableFuture());
    assertThat(other.inspect().waiters()).isEmpty();
    holder.close();
    assertThat(other.inspect().leases()).isEmpty();
    String after = other.call(ctx -> "after", ExecuteOptions.defaults());
    assertThat(after).isEqualTo("after");
  }

  @Test
  void attemptsAndTheirRetriesRunOnTheCallingThreadAfterTheClocksDelay() throws Exception {
    Limiter limiter = open(cap(1));
    List<Thread> threads = new CopyOnWriteArrayList<>();
    AttemptScript script =
        new AttemptScript(
            clock,
            ctx -> {
              threads.add(Thread.currentThread());
              if (ctx.attempt() == 1) {
                throw new AttemptScript.ServiceDown(1);
              }
              return "ok " + ctx.attempt();
            });
    ExecuteOptions options =
        ExecuteOptions.builder()
            .replaySafe(true)
            .classifier(AttemptClassifier.exceptionsAreServiceFailures())
            .retry(ExecutionCases.exact(3, Duration.ofSeconds(2)))
            .build();
    CompletableFuture<String> f = callOnThread(limiter, script, options);
    script.awaitStart();
    long start = clock.monotonicNanos();
    clock.awaitTimerDue(start + 500_000_000L, start + 500_000_000L, SAFETY);
    assertThat(f).as("the caller waits for the delay").isNotDone();
    assertThat(limiter.inspect().activeWeight()).as("the delay holds no lease").isZero();
    clock.advance(Duration.ofMillis(500));
    assertThat(await(f)).isEqualTo("ok 2");
    assertThat(threads).hasSize(2);
    assertThat(threads.get(0)).isSameAs(threads.get(1));
    assertThat(threads.get(0).getName()).isEqualTo("blocking-caller");
    assertThat(script.gaps()).containsExactly(Duration.ofMillis(500));
  }

  @Test
  void anAttemptTimeoutCancelsAtOnceAndAnswersWhenTheTaskReturns() throws Exception {
    Limiter limiter = open(cap(1));
    AttemptScript script = AttemptScript.waiting(clock);
    ExecuteOptions options =
        ExecuteOptions.builder()
            .replaySafe(true)
            .classifier(AttemptClassifier.exceptionsAreServiceFailures())
            .attemptTimeout(Duration.ofSeconds(1))
            .build();
    CompletableFuture<String> f = callOnThread(limiter, script, options);
    ExecutionContext attempt = script.awaitStart();
    clock.advance(Duration.ofSeconds(1));
    await(attempt.cancellation().toCompletableFuture());
    assertThat(f).as("the calling thread still runs the task").isNotDone();
    assertThat(limiter.tryAcquire(1)).as("the attempt still holds its lease").isEmpty();
    script.release();
    Throwable failure = awaitFailure(f);
    assertThat(failure).isInstanceOf(AttemptTimeoutException.class);
    assertThat(((AttemptTimeoutException) failure).attempt()).isEqualTo(1);
    assertThat(script.attempts()).as("no retry after a timeout").isEqualTo(1);
    try (Lease next = limiter.acquire(1)) {
      assertThat(next.admission().weight()).isEqualTo(1);
    }
  }

  @Test
  void theDeadlineCancelsARunningAttemptAndCutsTheDelay() throws Exception {
    Limiter limiter = open(cap(1));
    AttemptScript running = AttemptScript.waiting(clock);
    ExecuteOptions once =
        ExecuteOptions.builder().deadline(Duration.ofSeconds(2)).noAttemptTimeout().build();
    CompletableFuture<String> f = callOnThread(limiter, running, once);
    ExecutionContext attempt = running.awaitStart();
    clock.advance(Duration.ofSeconds(2));
    await(attempt.cancellation().toCompletableFuture());
    running.release();
    assertThat(awaitFailure(f)).isInstanceOf(ExecutionTimeoutException.class).hasNoCause();
    assertThat(limiter.inspect().activeWeight()).isZero();

    AttemptScript failing = AttemptScript.failing(clock);
    ExecuteOptions retrying =
        ExecuteOptions.builder()
            .replaySafe(true)
            .classifier(AttemptClassifier.exceptionsAreServiceFailures())
            .retry(ExecutionCases.exact(5, Duration.ofSeconds(10)))
            .deadline(Duration.ofMillis(300))
            .build();
    CompletableFuture<String> g = callOnThread(limiter, failing, retrying);
    failing.awaitStart();
    // The retry would start after the 500 ms delay, past the 300 ms deadline: the attempt's own
    // failure is the call's at once.
    assertThat(awaitFailure(g)).isInstanceOf(AttemptScript.ServiceDown.class);
    assertThat(clock.pendingTimers()).isZero();
    assertThat(failing.attempts()).isEqualTo(1);
  }
}
