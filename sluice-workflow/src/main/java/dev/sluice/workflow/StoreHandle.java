/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import java.util.List;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * One document of a durable store as a workflow sees it (from {@link WorkflowContext#store}). Every
 * operation is a recorded step with its own key: the first run reads or changes the document and
 * records the snapshot in the same transaction; a replay returns the recorded snapshot and touches
 * nothing, so an update is applied exactly once per step however often the execution replays or
 * which worker runs it.
 *
 * <p>Updaters and conditions run inside the store's transaction: they must be fast, deterministic
 * and free of side effects, and may run more than once for one step (a store may retry a
 * transaction after a conflict). They run on a thread of the store's, under a lock every process of
 * the store shares, and must not call the runtime, a workflow context or a store (that throws
 * {@link IllegalStateException}). If one throws an exception, the step's failure is recorded like a
 * step body's and thrown as {@link StepFailedException}, now and on every replay. A replay that
 * asks a step for another document than the one recorded fails with {@link
 * NonDeterminismException}.
 *
 * <p>Not thread-safe: confined, like its context, to the worker thread that runs the workflow
 * function. Every operation blocks on the store.
 *
 * @param <T> the state's type
 */
public interface StoreHandle<T> {
  /** Returns the durable store's definition. */
  DurableStore<T> definition();

  /** Returns the document's id. */
  String id();

  /**
   * Reads the document; a replay returns what the first run read.
   *
   * @param key the step's key
   * @return the document as read
   */
  StoreSnapshot<T> get(String key);

  /**
   * Changes the document: {@code updater} gets the current state and returns the new one (a new
   * value, or the one it was given, changed). A change wakes the executions waiting on a path it
   * touched.
   *
   * @param key the step's key
   * @param updater returns the new state, never null
   * @return the document after the change
   * @throws StepFailedException if the updater threw or returned null
   */
  StoreSnapshot<T> update(String key, UnaryOperator<T> updater);

  /**
   * Waits until {@code condition} holds for the document. It is tested now; if false, the execution
   * suspends (no worker is held) and is queued again by a change that touches one of {@code
   * watchedPaths}, and tested again. A path is a JSON Pointer into the encoded state ({@code
   * "/payment"}, {@code "/items/0/qty"}, {@code ""} for the whole document); a change touches it if
   * one is a prefix of the other, so {@code "/items"} sees a change of {@code "/items/3"} and
   * {@code "/order/status"} sees {@code "/order"} replaced. Changes of other paths wake nothing.
   *
   * @param key the step's key
   * @param watchedPaths the paths the condition reads, at least one
   * @param condition tested on the state
   * @return the document as it first met the condition
   * @throws WorkflowSuspension while the condition is false; the function must let it through
   * @throws IllegalArgumentException if a path is not a JSON Pointer, or there is none
   * @throws StepFailedException if the condition threw
   */
  StoreSnapshot<T> awaitCondition(String key, List<String> watchedPaths, Predicate<T> condition);
}
