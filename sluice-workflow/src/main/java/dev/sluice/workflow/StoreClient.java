/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import java.util.function.UnaryOperator;

/**
 * One document of a durable store as code outside workflows sees it (from {@link
 * WorkflowRuntime#store}), for instance a webhook that records a payment. Its changes wake the
 * workflows waiting on the paths they touch, in the same transaction as the change.
 *
 * <p>Thread-safe. Every operation blocks on the store; updaters follow the rules of {@link
 * StoreHandle}: fast, deterministic, free of side effects, possibly run more than once. Every
 * operation throws {@link IllegalStateException} once the runtime is closed, and {@code
 * dev.sluice.BackendFailureException} if the store failed (nothing was changed).
 *
 * @param <T> the state's type
 */
public interface StoreClient<T> {
  /** Returns the durable store's definition. */
  DurableStore<T> definition();

  /** Returns the document's id. */
  String id();

  /** Reads the document. */
  StoreSnapshot<T> get();

  /**
   * Changes the document.
   *
   * @param updater returns the new state, never null
   * @return the document after the change
   * @throws IllegalArgumentException if the updater returned null; nothing was changed
   * @throws RuntimeException whatever the updater threw; nothing was changed
   */
  StoreSnapshot<T> update(UnaryOperator<T> updater);

  /**
   * Changes the document at most once per idempotency key of this document: a repeated call with
   * the same key (a webhook delivered twice) changes nothing, whatever its updater, and returns the
   * document as the first call left it. The receipt is written in the same transaction as the
   * change and kept for the runtime's retention; a call with the key after that applies again.
   *
   * @param idempotencyKey the caller's key for this change, 1 to 200 characters
   * @param updater returns the new state, never null
   * @return the document after the first call with this key
   */
  StoreSnapshot<T> update(String idempotencyKey, UnaryOperator<T> updater);
}
