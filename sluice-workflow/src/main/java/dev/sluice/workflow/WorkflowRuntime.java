/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import dev.sluice.workflow.spi.WorkflowStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Runs workflows on a store: accepts executions ({@link #submit}), and once {@link #start()}ed,
 * claims queued executions with its worker threads and replays them with their recorded step
 * outcomes. Executions, their steps and timers are rows in the store, so every runtime on the same
 * store (in this JVM or, for a shared store, in other processes) sees the same executions; a
 * runtime opened after a restart finds them by id.
 *
 * <pre>{@code
 * try (WorkflowRuntime runtime = WorkflowRuntime.builder()
 *     .store(MemoryWorkflowStore.named("orders"))
 *     .register(checkout)
 *     .build()) {
 *   runtime.start();
 *   Execution<Receipt> run = runtime.submit(checkout, "order-42", order);
 *   Receipt receipt = run.result(Duration.ofSeconds(30));
 * }
 * }</pre>
 *
 * <p>Workers never poll: an idle worker sleeps until the store reports a change, the next durable
 * timer falls due, or the runtime closes.
 *
 * <p><b>Execution timeouts.</b> An execution may get a limit on how long it takes from its creation
 * ({@link Builder#executionTimeout(String, Duration)} per workflow, {@link
 * SubmitOptions.Builder#executionTimeout} per submit). Its deadline is stored with it, on the
 * store's clock, and its durable timer is never later than the deadline, so the deadline is
 * enforced by whichever runtime on the store claims next after it, even while the execution waits
 * in the queue or sleeps on a longer timer. It then ends {@link ExecutionStatus#TIMED_OUT} and
 * {@link Execution#result(Duration)} throws {@link WorkflowTimeoutException}. A step body running
 * at the deadline is never interrupted; when it returns, its result is not recorded (every write of
 * a running execution checks the deadline first) and nothing after it runs.
 *
 * <p><b>Retention.</b> Finished executions are kept for {@link Builder#retention(Duration)} (7 days
 * by default) after they finished, then purged automatically, at most {@value
 * dev.sluice.workflow.RuntimeSettings#PURGE_BATCH} per transaction so the store's lock is never
 * held long. There is no purge loop: every claim a worker makes already reads the store, and it
 * also reads the oldest finished execution (one indexed row); when that one is past its retention
 * the worker deletes a batch in its own transaction before it claims again, and an idle worker arms
 * its one timer for the earlier of the next durable timer and the moment the oldest finished
 * execution becomes purgeable. So a busy runtime purges between executions and an idle one wakes
 * once when there is something to purge. With several runtimes on a store, the shortest retention
 * among them applies. There are exactly {@link Builder#workers(int)} workers, named {@code
 * sluice-workflow-<store>-N}: virtual threads where the JVM has them (Java 21 and later), else
 * platform daemon threads.
 *
 * <p>Thread-safe. Methods that read or write the store block on it; {@link #close()} blocks until
 * running step bodies return.
 */
public interface WorkflowRuntime extends AutoCloseable {
  /** Returns a builder. */
  static Builder builder() {
    return new Builder();
  }

  /** Starts the workers; they begin claiming work. Calling it again does nothing. */
  void start();

  /**
   * Submits an execution, idempotently per id: if {@code id} names an execution of the same
   * workflow with an equal (equally encoded) input, returns that execution and changes nothing.
   *
   * @param workflow a registered workflow
   * @param id the execution's id, 1 to 200 characters
   * @param input the input, an instance of the workflow's input type
   * @param <I> the input type
   * @param <O> the output type
   * @return the execution
   * @throws IllegalArgumentException if the workflow is not registered, or the input is not of its
   *     input type or cannot be encoded
   * @throws ExecutionConflictException if the id names an execution of another workflow or input
   * @throws IllegalStateException if the runtime is closed
   */
  <I, O> Execution<O> submit(Workflow<I, O> workflow, String id, I input);

  /**
   * Like {@link #submit(Workflow, String, Object)}, with options for a new execution, such as its
   * execution timeout; a repeated submit of a known id returns that execution and ignores them.
   *
   * @param workflow a registered workflow
   * @param id the execution's id, 1 to 200 characters
   * @param input the input, an instance of the workflow's input type
   * @param options the options of a new execution
   * @param <I> the input type
   * @param <O> the output type
   * @return the execution
   * @throws IllegalArgumentException if the workflow is not registered, or the input is not of its
   *     input type or cannot be encoded
   * @throws ExecutionConflictException if the id names an execution of another workflow or input
   * @throws IllegalStateException if the runtime is closed
   */
  <I, O> Execution<O> submit(Workflow<I, O> workflow, String id, I input, SubmitOptions options);

  /**
   * Finds an execution by id, in this runtime's store, whoever submitted it.
   *
   * @param id the execution's id
   * @param outputType the workflow's output type
   * @param <O> the output type
   * @return the execution, or empty if the store has none with this id
   * @throws IllegalArgumentException if the execution's workflow is registered here with another
   *     output type
   */
  <O> Optional<Execution<O>> execution(String id, Class<O> outputType);

  /** Like {@link #execution(String, Class)}, for a generic output type. */
  <O> Optional<Execution<O>> execution(String id, TypeRef<O> outputType);

  /**
   * Returns a handle on one document of a durable store, for code outside workflows; its changes
   * wake the workflows waiting on them. Works whether or not the runtime was started.
   *
   * @param store the durable store
   * @param id the document's id, 1 to 200 characters
   * @param <T> the state's type
   * @return the handle
   */
  <T> StoreClient<T> store(DurableStore<T> store, String id);

  /**
   * Returns the read-only view of this runtime's store: executions of every workflow on it, their
   * steps, timers and waits. Works whether or not the runtime was started.
   *
   * @return the inspector, valid until the runtime closes
   */
  WorkflowInspector inspector();

  /**
   * Calls {@code listener} after each run of a step body in this runtime (not for replays of
   * recorded steps), on the worker thread that ran it, before its outcome is committed. For meters
   * and traces; a listener that throws is logged and otherwise ignored.
   *
   * @param listener a short, non-blocking action
   * @return closing it removes the listener
   */
  AutoCloseable onStep(java.util.function.Consumer<StepEvent> listener);

  /**
   * Cancels an execution unless it has finished; see {@link Execution#cancel()}.
   *
   * @param id the execution's id
   * @return true if this call cancelled it
   */
  boolean cancel(String id);

  /**
   * Deletes executions that finished more than {@code olderThan} ago, with their steps and timers,
   * in bounded batches (one transaction each).
   *
   * @param olderThan zero or more
   * @return how many executions were deleted
   */
  long purge(Duration olderThan);

  /**
   * Stops the workers: no new claims; a worker running a step body lets it return, commits its
   * result, and puts the execution back in the queue for the next runtime. Blocks until the workers
   * have stopped. Never interrupts user code.
   */
  @Override
  void close();

  /** Builds a {@link WorkflowRuntime}; {@link #build()} checks the settings. Not thread-safe. */
  final class Builder {
    private WorkflowStore store;
    private final List<Workflow<?, ?>> workflows = new ArrayList<>();
    private int workers = RuntimeSettings.DEFAULT_WORKERS;
    private final Map<String, Integer> maxConcurrent = new LinkedHashMap<>();
    private final Map<String, Integer> globalMaxConcurrent = new LinkedHashMap<>();
    private WorkflowCodec codec;
    private final Map<String, Duration> executionTimeouts = new LinkedHashMap<>();
    private Duration retention = RuntimeSettings.DEFAULT_RETENTION;
    private WorkflowInstrumentation instrumentation;

    Builder() {}

    /**
     * Sets the execution timeout of new executions of one workflow (all versions): how long one may
     * take from its creation, on the store's clock, unless its submit sets another ({@link
     * SubmitOptions}). See the class comment for what happens when it passes.
     *
     * @param workflowName a registered workflow's name
     * @param executionTimeout {@link RuntimeSettings#MIN_EXECUTION_TIMEOUT} to {@link
     *     RuntimeSettings#MAX_EXECUTION_TIMEOUT}
     * @return this builder
     */
    public Builder executionTimeout(String workflowName, Duration executionTimeout) {
      executionTimeouts.put(
          Objects.requireNonNull(workflowName, "workflowName"),
          Objects.requireNonNull(executionTimeout, "executionTimeout"));
      return this;
    }

    /**
     * Sets how long finished executions (completed, failed, cancelled, timed out) are kept after
     * they finished before they are purged automatically; {@link RuntimeSettings#DEFAULT_RETENTION}
     * (7 days) unless set. See the class comment for how purging runs.
     *
     * @param retention {@link RuntimeSettings#MIN_RETENTION} to {@link
     *     RuntimeSettings#MAX_RETENTION}
     * @return this builder
     */
    public Builder retention(Duration retention) {
      this.retention = Objects.requireNonNull(retention, "retention");
      return this;
    }

    /**
     * Sets the store.
     *
     * @param store where executions live
     * @return this builder
     */
    public Builder store(WorkflowStore store) {
      this.store = Objects.requireNonNull(store, "store");
      return this;
    }

    /**
     * Registers a workflow version; this runtime runs its executions.
     *
     * @param workflow the definition
     * @return this builder
     */
    public Builder register(Workflow<?, ?> workflow) {
      workflows.add(Objects.requireNonNull(workflow, "workflow"));
      return this;
    }

    /**
     * Sets the number of worker threads: how many executions this runtime runs at once.
     *
     * @param workers 1 to 1024
     * @return this builder
     */
    public Builder workers(int workers) {
      this.workers = workers;
      return this;
    }

    /**
     * Limits how many executions of one workflow (all versions) this runtime runs at once.
     *
     * @param workflowName a registered workflow's name
     * @param limit at least 1
     * @return this builder
     */
    public Builder maxConcurrent(String workflowName, int limit) {
      maxConcurrent.put(Objects.requireNonNull(workflowName, "workflowName"), limit);
      return this;
    }

    /**
     * Limits how many executions of one workflow (all versions) run at once on the whole store, in
     * every runtime and process together: a worker claims one only while fewer are running, counted
     * in the claim's own transaction. Give every runtime on the store the same limit; where they
     * differ, each claims by its own. Executions held by a dead owner count until they are taken
     * over, which the same claim does first. Combines with {@link #maxConcurrent}, the limit of
     * this runtime alone.
     *
     * @param workflowName a registered workflow's name
     * @param limit at least 1
     * @return this builder
     */
    public Builder globalMaxConcurrent(String workflowName, int limit) {
      globalMaxConcurrent.put(Objects.requireNonNull(workflowName, "workflowName"), limit);
      return this;
    }

    /**
     * Sets the codec; the default is {@link WorkflowCodec#jackson()}.
     *
     * @param codec the codec
     * @return this builder
     */
    public Builder codec(WorkflowCodec codec) {
      this.codec = Objects.requireNonNull(codec, "codec");
      return this;
    }

    /**
     * Observes this runtime's steps with this hook (for example {@code
     * dev.sluice.opentelemetry.WorkflowTracing}), which carries each submitting caller's context
     * with the execution, durably, to whichever worker runs its steps. Without one, nothing is
     * observed or carried.
     *
     * @param instrumentation the hook
     * @return this builder
     */
    public Builder instrumentation(WorkflowInstrumentation instrumentation) {
      this.instrumentation = Objects.requireNonNull(instrumentation, "instrumentation");
      return this;
    }

    /** Returns the checked settings, without building a runtime. */
    public RuntimeSettings settings() {
      if (store == null) {
        throw new NullPointerException("store must be set");
      }
      return new RuntimeSettings(
          store,
          workflows,
          workers,
          maxConcurrent,
          codec == null ? WorkflowCodec.jackson() : codec,
          executionTimeouts,
          retention,
          globalMaxConcurrent);
    }

    /** Builds the runtime; it claims nothing until {@link WorkflowRuntime#start()}. */
    public WorkflowRuntime build() {
      return dev.sluice.workflow.internal.Runtimes.create(settings(), instrumentation);
    }
  }
}
