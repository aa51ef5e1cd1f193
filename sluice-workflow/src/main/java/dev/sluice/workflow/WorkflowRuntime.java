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
 * timer falls due, or the runtime closes. There are exactly {@link Builder#workers(int)} workers,
 * named {@code sluice-workflow-<store>-N}: virtual threads where the JVM has them (Java 21 and
 * later), else platform daemon threads.
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
    private WorkflowCodec codec;

    Builder() {}

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
     * Sets the codec; the default is {@link WorkflowCodec#jackson()}.
     *
     * @param codec the codec
     * @return this builder
     */
    public Builder codec(WorkflowCodec codec) {
      this.codec = Objects.requireNonNull(codec, "codec");
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
          codec == null ? WorkflowCodec.jackson() : codec);
    }

    /** Builds the runtime; it claims nothing until {@link WorkflowRuntime#start()}. */
    public WorkflowRuntime build() {
      return dev.sluice.workflow.internal.Runtimes.create(settings());
    }
  }
}
