/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import dev.sluice.ExecuteOptions;
import dev.sluice.Limiter;
import dev.sluice.ScheduleOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * What a workflow function uses to do durable work. Every call names a step by a key unique within
 * the execution; the runtime records each step's outcome under its key, and a replay (after a
 * sleep, a retry delay, a restart or another worker's death) returns the recorded outcome instead
 * of running the step again.
 *
 * <table>
 *   <caption>The durable operations</caption>
 *   <tr><th>Call</th><th>First run</th><th>Replay</th></tr>
 *   <tr><td>{@code step}</td><td>runs the body (in a limiter pool if given), records its
 *       result or last failure (committed before the next call does anything, or with the
 *       execution's outcome)</td>
 *       <td>returns the result or throws {@link StepFailedException}</td></tr>
 *   <tr><td>{@code sleep}, {@code sleepUntil}</td><td>records the wake time and suspends</td>
 *       <td>returns once the time has come, else suspends again</td></tr>
 *   <tr><td>{@code now}, {@code randomUuid}</td><td>records a value</td>
 *       <td>returns the recorded value</td></tr>
 *   <tr><td>{@code patched}</td><td>records a marker, returns true</td>
 *       <td>true where the marker was recorded, false for history from before the change</td></tr>
 *   <tr><td>{@code store(...).get}, {@code update}</td><td>reads or changes the document and
 *       records the snapshot in one transaction</td><td>returns the recorded snapshot</td></tr>
 *   <tr><td>{@code store(...).awaitCondition}</td><td>records the snapshot if the condition
 *       holds, else suspends until a change of a watched path</td>
 *       <td>returns the recorded snapshot, else tests again</td></tr>
 * </table>
 *
 * <p>Suspension throws {@link WorkflowSuspension}, which the function must let through. The
 * function must be deterministic apart from these calls: the same input and the same recorded
 * outcomes must lead to the same calls in the same order, or the execution fails with {@link
 * NonDeterminismException}. Keys starting with {@code $} are reserved.
 *
 * <p>Not thread-safe: confined to the worker thread that runs the function; a call from any other
 * thread, or after the function returned, throws {@link IllegalStateException}. {@code step} blocks
 * while its body runs; the next call blocks while the step's outcome is committed.
 */
public interface WorkflowContext {
  /** Returns the execution's id. */
  String executionId();

  /**
   * Returns a handle on one document of a durable store. Getting the handle records nothing; each
   * of its operations is a step with its own key.
   *
   * @param store the durable store
   * @param id the document's id, 1 to 200 characters
   * @param <T> the state's type
   * @return the handle, confined like this context
   */
  <T> StoreHandle<T> store(DurableStore<T> store, String id);

  /**
   * Runs a step once and records its outcome; see {@link #step(String, StepOptions, TypeRef,
   * StepFunction)}.
   */
  default <T> T step(String key, Class<T> type, StepBody<T> body) {
    return step(key, StepOptions.defaults(), TypeRef.of(type), asFunction(body));
  }

  /** Like {@link #step(String, Class, StepBody)}, for a generic result type. */
  default <T> T step(String key, TypeRef<T> type, StepBody<T> body) {
    return step(key, StepOptions.defaults(), type, asFunction(body));
  }

  /** Like {@link #step(String, Class, StepBody)}, with a retry policy. */
  default <T> T step(String key, StepOptions options, Class<T> type, StepBody<T> body) {
    return step(key, options, TypeRef.of(type), asFunction(body));
  }

  /** Like {@link #step(String, Class, StepBody)}, with a retry policy and a generic result type. */
  default <T> T step(String key, StepOptions options, TypeRef<T> type, StepBody<T> body) {
    return step(key, options, type, asFunction(body));
  }

  /** Like {@link #step(String, Class, StepBody)}, for a body that reads its {@link StepContext}. */
  default <T> T step(String key, Class<T> type, StepFunction<T> body) {
    return step(key, StepOptions.defaults(), TypeRef.of(type), body);
  }

  /** Like {@link #step(String, TypeRef, StepBody)}, for a body that reads its context. */
  default <T> T step(String key, TypeRef<T> type, StepFunction<T> body) {
    return step(key, StepOptions.defaults(), type, body);
  }

  /**
   * Like {@link #step(String, StepOptions, Class, StepBody)}, for a body that reads its context.
   */
  default <T> T step(String key, StepOptions options, Class<T> type, StepFunction<T> body) {
    return step(key, options, TypeRef.of(type), body);
  }

  /**
   * Runs a step and records its outcome under {@code key}. If an outcome is recorded, returns the
   * recorded result (decoded as {@code type}) or throws the recorded failure as {@link
   * StepFailedException}, without running the body. Otherwise runs the body on this thread and
   * returns its result, which is committed before the function's next call on this context does
   * anything, or with the execution's outcome if the function returns first: only the function's
   * own code between the two runs before the commit, and the last step and the outcome cost one
   * commit. A failure that {@code options} allow to retry is recorded with the next attempt's time
   * and suspends the execution until then; the last failure is recorded the same way and thrown as
   * {@link StepFailedException}.
   *
   * <p>A body whose outcome was not committed (its worker died first) runs again on recovery;
   * {@link StepContext#idempotencyKey()} is the same every time.
   *
   * @param key the step's key, unique within the execution, 1 to 200 characters, not starting with
   *     {@code $}
   * @param options the retry policy
   * @param type the result's type
   * @param body the step
   * @param <T> the result type
   * @return the result
   * @throws StepFailedException if the body failed for the last time, now or when recorded
   * @throws NonDeterminismException if the key was used before in this execution, or a replay
   *     expected another step here
   * @throws WorkflowSuspension if a retry must wait; the function must let it through
   */
  <T> T step(String key, StepOptions options, TypeRef<T> type, StepFunction<T> body);

  /**
   * Runs a step inside a limiter pool: the body runs once the pool admits it, as a {@link
   * Limiter#schedule(dev.sluice.AdmittedTask, ScheduleOptions) scheduled} callback, so it obeys the
   * same shared quota (concurrency, spacing, reservoir) as every other caller of the pool;
   * otherwise like {@link #step(String, Class, StepBody)}. The worker waits for the admission and
   * the body. A request that times out in the pool's queue fails the attempt with the limiter's
   * {@code QueueTimeoutException}.
   */
  default <T> T step(
      String key, Limiter limiter, ScheduleOptions schedule, Class<T> type, StepBody<T> body) {
    Objects.requireNonNull(body, "body");
    return step(key, StepOptions.defaults(), limiter, schedule, TypeRef.of(type), s -> body.run());
  }

  /** Like {@link #step(String, Limiter, ScheduleOptions, Class, StepBody)}, reading the context. */
  default <T> T step(
      String key, Limiter limiter, ScheduleOptions schedule, Class<T> type, StepFunction<T> body) {
    return step(key, StepOptions.defaults(), limiter, schedule, TypeRef.of(type), body);
  }

  /**
   * Like {@link #step(String, Limiter, ScheduleOptions, Class, StepBody)}, with a retry policy
   * (each attempt asks the pool again) and a generic result type. The body runs on the limiter's
   * callback thread, not the worker; it must not call this context.
   *
   * @param key the step's key
   * @param options the retry policy
   * @param limiter the pool the body runs in
   * @param schedule the request's weight, queue timeout and lease expiration
   * @param type the result's type
   * @param body the step
   * @param <T> the result type
   * @return the result
   */
  default <T> T step(
      String key,
      StepOptions options,
      Limiter limiter,
      ScheduleOptions schedule,
      TypeRef<T> type,
      StepFunction<T> body) {
    Objects.requireNonNull(limiter, "limiter");
    Objects.requireNonNull(schedule, "schedule");
    Objects.requireNonNull(body, "body");
    return step(key, options, type, step -> inPool(limiter, schedule, step, body));
  }

  /**
   * Runs a managed execution ({@link Limiter#call(dev.sluice.ExecutionTask, ExecuteOptions)}) as
   * one recorded step: each attempt is admitted by the pool and its body sees that attempt's
   * admission through {@link StepContext#admission()}; the attempts and their delays (under {@code
   * options}' classifier, retry policy, deadline and attempt timeout) all happen inside the step,
   * on the worker's thread, and only the execution's final result or failure is recorded, once. A
   * replay returns the record without running the body or asking the pool. Use {@link
   * StepContext#idempotencyKey()} as the downstream idempotency key: it is the same for every
   * attempt and every worker.
   *
   * @param key the step's key
   * @param limiter the pool the attempts run in
   * @param options the managed execution's settings
   * @param type the result's type
   * @param body one attempt
   * @param <T> the result type
   * @return the result
   * @throws StepFailedException if the execution failed, now or when recorded
   */
  default <T> T step(
      String key, Limiter limiter, ExecuteOptions options, Class<T> type, StepFunction<T> body) {
    return step(key, limiter, options, TypeRef.of(type), body);
  }

  /** Like {@link #step(String, Limiter, ExecuteOptions, Class, StepFunction)}, without context. */
  default <T> T step(
      String key, Limiter limiter, ExecuteOptions options, Class<T> type, StepBody<T> body) {
    Objects.requireNonNull(body, "body");
    return step(key, limiter, options, TypeRef.of(type), s -> body.run());
  }

  /** Like {@link #step(String, Limiter, ExecuteOptions, Class, StepFunction)}, generic result. */
  default <T> T step(
      String key, Limiter limiter, ExecuteOptions options, TypeRef<T> type, StepFunction<T> body) {
    Objects.requireNonNull(limiter, "limiter");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(body, "body");
    // One step attempt: the retries are the execution's, so the outcome is recorded once.
    return step(
        key,
        StepOptions.defaults(),
        type,
        step ->
            limiter.call(
                attempt -> body.run(new AdmittedStep(step, attempt.admission(), attempt)),
                options));
  }

  /**
   * Suspends the execution durably until {@code duration} after the first time this step ran. The
   * wake time is recorded, so replays and restarts neither shorten nor extend it.
   *
   * @param key the step's key
   * @param duration zero or more
   * @throws WorkflowSuspension until the time has come
   */
  void sleep(String key, Duration duration);

  /**
   * Suspends the execution durably until {@code wakeAt} by the store's clock.
   *
   * @param key the step's key
   * @param wakeAt the time to wake; a past time does not suspend
   * @throws WorkflowSuspension until the time has come
   */
  void sleepUntil(String key, Instant wakeAt);

  /** Returns the store's time, recorded the first time and the same on every replay. */
  Instant now();

  /** Returns a random UUID, recorded the first time and the same on every replay. */
  UUID randomUuid();

  /**
   * Marks a code change inside a workflow version. New executions, and old ones that reach this
   * point for the first time, record a marker and get true; a replay of history recorded before the
   * change, where no marker is, gets false and must take the old path.
   *
   * @param changeId a name for the change, unique within the workflow
   * @return whether the execution takes the changed path
   */
  boolean patched(String changeId);

  private static <T> StepFunction<T> asFunction(StepBody<T> body) {
    Objects.requireNonNull(body, "body");
    return step -> body.run();
  }

  /** Runs {@code body} as a limiter callback and waits for it; failures pass through unchanged. */
  private static <T> T inPool(
      Limiter limiter, ScheduleOptions schedule, StepContext step, StepFunction<T> body)
      throws Exception {
    CompletableFuture<T> f =
        limiter.schedule(admission -> body.run(new AdmittedStep(step, admission, null)), schedule);
    try {
      return f.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception ex) {
        throw ex;
      }
      throw e;
    } catch (InterruptedException e) {
      // Withdraws the request if it has not started; a started body finishes on its own.
      f.cancel(false);
      Thread.currentThread().interrupt();
      throw e;
    }
  }
}
