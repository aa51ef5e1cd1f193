/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import dev.sluice.spi.PoolStore;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A limiter on a shared pool: every limiter, thread and process that opens the same pool shares one
 * weighted max-concurrency, one minimum spacing between admissions and one token reservoir.
 *
 * <pre>{@code
 * try (Limiter limiter = Limiter.open(MemoryStore.named("service"), config)) {
 *   String body = limiter.schedule(() -> callService()).join();   // callback on an executor
 *   String same = limiter.call(() -> callService());              // callback on this thread
 *   try (Lease lease = limiter.acquire(2)) { callService(lease.admission()); }
 * }
 * }</pre>
 *
 * <h2>Forms</h2>
 *
 * <table>
 *   <caption>Ways to run work inside the pool</caption>
 *   <tr><th></th><th>Blocks the caller</th><th>Returns at once</th></tr>
 *   <tr><td>callback</td><td>{@link #call(Callable)}</td>
 *       <td>{@link #schedule(Callable)}, {@link #schedule(AdmittedTask, ScheduleOptions)}</td></tr>
 *   <tr><td>managed execution, retried</td>
 *       <td>{@link #call(ExecutionTask, ExecuteOptions)}</td>
 *       <td>{@link #execute(ExecutionTask, ExecuteOptions)}</td></tr>
 *   <tr><td>lease</td><td>{@link #acquire(long)}, {@link #tryAcquire(long, Duration)}</td>
 *       <td>{@link #tryAcquire(long)}</td></tr>
 * </table>
 *
 * <h2>Waiting order</h2>
 *
 * A request that fits when nobody waits is admitted at once. Otherwise it joins the pool's one
 * queue, kept in the store, and is admitted in arrival order: the head is granted as soon as it
 * fits (a release, an expiry, a refill or a reservoir increment frees room), and a heavy head is
 * never overtaken by lighter requests behind it. The order is the order in which requests reached
 * the store, across every limiter and process using the pool.
 *
 * <h2>Errors</h2>
 *
 * Invalid arguments throw {@link IllegalArgumentException} or {@link NullPointerException} at once,
 * never through a future. Every run-time condition is a {@link SluiceException}: {@link
 * QueueTimeoutException}, {@link LeaseExpiredException}, {@link LimiterClosedException}, {@link
 * AccountingOverflowException}, {@link BackendFailureException}, and for managed executions {@link
 * ExecutionTimeoutException} and {@link AttemptTimeoutException}. A callback's own exception
 * reaches the caller unchanged.
 *
 * <p>Limiters are thread-safe. Closing one limiter never affects another limiter on the same pool.
 * Actions in a thread before a request is submitted happen-before its callback starts; the
 * callback's actions happen-before the completion of its future.
 */
public interface Limiter extends AutoCloseable {

  /**
   * Opens a limiter on a pool, creating the pool with {@code config} if it does not exist.
   *
   * @param store the pool's store
   * @param config the pool's configuration, equal for every user of the pool
   * @return the limiter
   * @throws ConfigMismatchException if the pool exists with another configuration
   * @throws StoreFormatException if the store cannot be read
   * @throws BackendFailureException if the store cannot be reached
   */
  static Limiter open(PoolStore store, LimiterConfig config) {
    return open(store, config, LimiterOptions.defaults());
  }

  /**
   * Opens a limiter with local options: callback executor, clock, listener and instrumentation.
   *
   * @param store the pool's store
   * @param config the pool's configuration, equal for every user of the pool
   * @param options local settings of this limiter
   * @return the limiter
   * @throws ConfigMismatchException if the pool exists with another configuration
   * @throws StoreFormatException if the store cannot be read
   * @throws BackendFailureException if the store cannot be reached
   */
  static Limiter open(PoolStore store, LimiterConfig config, LimiterOptions options) {
    return dev.sluice.internal.LimiterFactory.open(store, config, options);
  }

  /** Returns the pool's name. */
  String pool();

  /** Returns the pool's configuration. */
  LimiterConfig config();

  /**
   * Runs {@code task} on the limiter's executor once a request of weight 1 is admitted.
   *
   * @param task the work
   * @param <T> its result
   * @return a future that completes after the task returned and its lease was released; see {@link
   *     #schedule(AdmittedTask, ScheduleOptions)}
   */
  <T> CompletableFuture<T> schedule(Callable<T> task);

  /**
   * Runs {@code task} on the limiter's executor once a request is admitted. Never runs it on the
   * calling thread, and never blocks the caller.
   *
   * <p>The returned future completes after the task returned and its lease was released: with the
   * task's result, or with the task's exception unchanged (a failure to release is attached as
   * suppressed). Completing the future before the task started — {@code cancel}, {@code complete},
   * {@code completeExceptionally}, {@code orTimeout} — withdraws the request: the task never runs
   * and nothing is spent; a grant that raced the withdrawal is given back with its tokens (unless a
   * refill has reset the balance since) and its spacing slot (unless a later admission followed
   * it). Once the task started those calls return {@code false} and change nothing; a running task
   * is never interrupted. {@code obtrudeValue} and {@code obtrudeException} are refused.
   *
   * <p>Run-time refusals arrive through the future, never as a throw: {@link
   * LimiterClosedException} if the limiter is closing (or its executor refused the task), {@link
   * QueueTimeoutException}, {@link LeaseExpiredException}, {@link BackendFailureException}, {@link
   * PoolDrainingException} while the pool drains, {@link CircuitOpenException} for a request that
   * asked to {@linkplain ScheduleOptions#circuitFailFast() fail fast} while the circuit is open.
   * The future completes on a limiter thread (the executor's or the pool's own) or on the thread
   * that completed or withdrew it, never on a store or timer thread.
   *
   * @param task the work, given the admission
   * @param options weight, lease lifetime, queue timeout
   * @param <T> its result
   * @return the future of the task's result
   * @throws IllegalArgumentException if the weight exceeds the pool's {@code maxConcurrent}
   */
  <T> CompletableFuture<T> schedule(AdmittedTask<T> task, ScheduleOptions options);

  /**
   * Runs {@code task} as a managed execution: each attempt runs on the limiter's executor under a
   * lease of its own (spending weight, tokens and spacing like any request), is judged by the
   * options' classifier, and is tried again after a backoff delay, holding no lease meanwhile, when
   * the operation is replay-safe, the attempt was transient and not forbidden to retry, and the
   * retry policy has attempts left. Every attempt sees the same {@link
   * ExecutionContext#operationId()}.
   *
   * <p>The returned future completes with the last attempt's result once its lease was released, or
   * with the last attempt's exception unchanged. A result judged transient on the last attempt is
   * returned, not thrown. It fails at once, without waiting for a running attempt, with {@link
   * ExecutionTimeoutException} when the deadline passes and with {@link AttemptTimeoutException}
   * when an attempt runs too long; cancelling or completing it from outside also ends the execution
   * at once. Each of these cancels the running attempt's context, withdraws an attempt that waits
   * for admission and stops further attempts; a running attempt keeps its lease until its task
   * returns, and {@link #close()} waits for it. Refusals of an attempt's request ({@link
   * QueueTimeoutException} per attempt, {@link LeaseExpiredException}, {@link
   * LimiterClosedException}, {@link BackendFailureException}) end the execution with that
   * exception. A close stops retries (a running attempt finishes; its result is the call's); a
   * {@link #drainAndClose()} lets accepted executions retry to the end.
   *
   * @param task the work, run once per attempt
   * @param options replay safety, classifier, retry policy, deadline, attempt timeout
   * @param <T> its result
   * @return the future of the result
   * @throws IllegalArgumentException if the weight exceeds the pool's {@code maxConcurrent}
   */
  <T> CompletableFuture<T> execute(ExecutionTask<T> task, ExecuteOptions options);

  /**
   * Runs {@code task} as a managed execution with {@link ExecuteOptions#defaults()}: one attempt
   * that is never replayed, with the default deadline and attempt timeout.
   *
   * @param task the work
   * @param <T> its result
   * @return the future of the result; see {@link #execute(ExecutionTask, ExecuteOptions)}
   */
  default <T> CompletableFuture<T> execute(ExecutionTask<T> task) {
    return execute(task, ExecuteOptions.defaults());
  }

  /**
   * The blocking form of {@link #execute(ExecutionTask, ExecuteOptions)}, named {@code call} like
   * the blocking form of {@code schedule}, with the same retry, classifier and deadline rules. Like
   * {@link #call(Callable)} every attempt runs on the calling thread once admitted, and the delay
   * between attempts parks the calling thread (holding no lease) until the limiter's clock reaches
   * the next attempt's time.
   *
   * <p>Because the calling thread runs the task, a timeout cannot answer before the task returns:
   * when the attempt timeout or the deadline passes while the task runs, the attempt's {@link
   * ExecutionContext#cancelled()} becomes true at once and the task keeps its lease; when it
   * returns, whatever it returned, the call throws {@link AttemptTimeoutException} or {@link
   * ExecutionTimeoutException} and makes no further attempt (like a synchronous timeout without
   * interruption). {@link #execute(ExecutionTask, ExecuteOptions)} answers such a timeout at once
   * instead. Interrupting the caller while it waits for admission or between attempts ends the
   * execution with {@link InterruptedException}; an interrupt while the task runs is the task's to
   * observe, and stops the execution before its next attempt.
   *
   * @param task the work, run once per attempt
   * @param options replay safety, classifier, retry policy, deadline, attempt timeout
   * @param <T> its result
   * @return the last attempt's result
   * @throws Exception the last attempt's exception unchanged, {@link InterruptedException} if
   *     interrupted while waiting, or a {@link SluiceException}
   */
  <T> T call(ExecutionTask<T> task, ExecuteOptions options) throws Exception;

  /**
   * Runs {@code task} on the calling thread once a request of weight 1 is admitted, and releases
   * the lease when it returns. Blocks until admitted; interruptible while waiting.
   *
   * @param task the work
   * @param <T> its result
   * @return the task's result
   * @throws Exception the task's exception unchanged, {@link InterruptedException} if interrupted
   *     while waiting, or a {@link SluiceException}
   */
  <T> T call(Callable<T> task) throws Exception;

  /**
   * Acquires {@code weight} units, blocking until admitted or interrupted.
   *
   * @param weight at least 1 and at most {@code maxConcurrent}
   * @return the lease; close it to release
   * @throws InterruptedException if interrupted while waiting; nothing is held then
   * @throws IllegalArgumentException if the weight is out of range
   */
  Lease acquire(long weight) throws InterruptedException;

  /**
   * Acquires {@code weight} units only if that is possible at once: nobody waits and the request
   * fits. A refused attempt spends nothing. It does not wait for other requests; it waits for the
   * store's answer at most about 200 ms, so a store that cannot answer sooner (another process
   * stopped in the middle of a transaction holds its lock) is an answer too: empty, with the
   * request taken back before the store applied it.
   *
   * @param weight at least 1 and at most {@code maxConcurrent}
   * @return the lease, or empty
   */
  Optional<Lease> tryAcquire(long weight);

  /**
   * Acquires {@code weight} units, waiting in the queue at most {@code wait}. A zero or negative
   * wait does not queue, like {@link #tryAcquire(long)}. A store that cannot answer within the wait
   * (its lock held by a stopped process) makes it return empty too, the request taken back.
   *
   * @param weight at least 1 and at most {@code maxConcurrent}
   * @param wait the longest wait
   * @return the lease, or empty if the wait passed first
   * @throws InterruptedException if interrupted while waiting; nothing is held then
   */
  Optional<Lease> tryAcquire(long weight, Duration wait) throws InterruptedException;

  /** Returns a consistent snapshot of the pool. Blocks on the store. */
  PoolSnapshot inspect();

  /**
   * Returns the token balance after any due refill, or empty for unlimited. Blocks on the store.
   */
  OptionalLong currentReservoir();

  /**
   * Adds {@code delta} tokens to the balance (negative allowed; an unlimited balance starts from
   * zero) and wakes waiters that now fit. Blocks on the store.
   *
   * @param delta tokens to add
   * @return the new balance
   * @throws AccountingOverflowException if the balance would overflow; it is unchanged then
   * @throws IllegalStateException if the pool passes units locally ({@link
   *     LimiterConfig#localHandOffs()} above 0), where every admission must not need the store
   */
  long incrementReservoir(long delta);

  /**
   * Subscribes {@code listener} to this limiter's events until the returned subscription is closed,
   * with a queue of 1024 events; see {@link LimiterListener} for how events are delivered. A closed
   * limiter sends no more events; those already queued are still delivered. Never blocks.
   *
   * @param listener the listener
   * @return the subscription: close it to unsubscribe; it counts dropped events and failures
   */
  default LimiterListener.Subscription listen(LimiterListener listener) {
    return listen(listener, 1024);
  }

  /**
   * The registration of the listener given through {@link LimiterOptions.Builder#listener}, if one
   * was: it tells what that listener's queue dropped and how often the listener threw; closing it
   * stops that listener for good. Never blocks.
   *
   * @return the subscription, or empty if the options named no listener
   */
  default Optional<LimiterListener.Subscription> optionsListener() {
    return Optional.empty();
  }

  /**
   * Subscribes {@code listener} with a queue of {@code queueCapacity} events: events that find the
   * queue full are dropped and counted. Never blocks.
   *
   * @param listener the listener
   * @param queueCapacity 1 to 1,048,576
   * @return the subscription
   * @throws IllegalArgumentException if the capacity is out of range
   */
  LimiterListener.Subscription listen(LimiterListener listener, int queueCapacity);

  /**
   * Returns the pool-wide drain and the view of the shared cooldown and circuit breaker.
   *
   * @return the pool's maintenance operations
   */
  Maintenance maintenance();

  /**
   * Returns HTTP calls through this limiter, sent by a client shared in this JVM: each call is a
   * managed execution whose attempts hold their lease until the response body ended. See {@link
   * dev.sluice.http.HttpLimiter}.
   *
   * @return the HTTP view of this limiter; cheap, make one per use or keep it
   */
  default dev.sluice.http.HttpLimiter http() {
    return dev.sluice.http.HttpLimiter.of(this);
  }

  /**
   * Returns HTTP calls through this limiter sent by {@code client}; see {@link #http()}.
   *
   * @param client the client
   * @return the HTTP view of this limiter
   */
  default dev.sluice.http.HttpLimiter http(java.net.http.HttpClient client) {
    return dev.sluice.http.HttpLimiter.of(this, client);
  }

  /**
   * Stops new submissions, rejects queued work with {@link LimiterClosedException}, waits for
   * running work and its releases, then detaches from the pool. Later calls wait for the same
   * completion; the first call to any close method fixes the mode. When it returns, every future
   * this limiter returned is complete. Called from a continuation of one of those futures, it does
   * not wait for the request whose completion is running the continuation.
   *
   * @throws IllegalStateException if called from one of this limiter's own callbacks
   */
  @Override
  void close();

  /**
   * Stops new submissions and lets all accepted work, queued or running, finish before detaching.
   *
   * @throws IllegalStateException if called from one of this limiter's own callbacks
   */
  void drainAndClose();

  /**
   * Starts {@link #close()} without blocking.
   *
   * @return the shared completion of closing
   * @throws IllegalStateException if called from one of this limiter's own callbacks
   */
  CompletionStage<Void> closeAsync();

  /**
   * Starts {@link #drainAndClose()} without blocking.
   *
   * @return the shared completion of closing
   * @throws IllegalStateException if called from one of this limiter's own callbacks
   */
  CompletionStage<Void> drainAndCloseAsync();
}
