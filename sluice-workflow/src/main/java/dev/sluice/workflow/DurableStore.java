/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A kind of durable store: typed documents, each named by an id, kept in the workflow store beside
 * the executions. Workflows read and change them as recorded steps ({@link WorkflowContext#store})
 * and wait until a change makes a condition true; code outside workflows (a webhook) changes them
 * through {@link WorkflowRuntime#store}, and its changes wake the workflows that wait on them.
 *
 * <pre>{@code
 * DurableStore<Cart> carts = DurableStore.define("cart", Cart.class, Cart::empty);
 * // in a workflow
 * StoreHandle<Cart> cart = ctx.store(carts, order.cartId());
 * cart.update("add-gift", c -> c.with(gift));
 * Cart paid = cart.awaitCondition("paid", List.of("/payment"), c -> c.payment() != null).state();
 * // in a webhook
 * runtime.store(carts, cartId).update(event.id(), c -> c.paidWith(event.payment()));
 * }</pre>
 *
 * <p>A document that was never written reads as {@code initial}'s value at version 0; every change
 * raises the version by one. The state is encoded with the runtime's codec; for change tracking it
 * must encode to JSON (the default codec does). Immutable and thread-safe.
 *
 * @param name the store's name, 1 to 200 characters without control characters
 * @param type the state's type
 * @param initial the state of a document never written; called whenever one is read, so it must
 *     return equal values each time and must not return null
 * @param <T> the state's type
 */
public record DurableStore<T>(String name, TypeRef<T> type, Supplier<T> initial) {
  /** Checks every component, naming the field and the value. */
  public DurableStore {
    Workflow.checkName("durable store name", name);
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(initial, "initial");
  }

  /**
   * Defines a durable store.
   *
   * @param name the store's name
   * @param type the state's class
   * @param initial the state of a document never written
   * @param <T> the state's type
   * @return the definition
   */
  public static <T> DurableStore<T> define(String name, Class<T> type, Supplier<T> initial) {
    return new DurableStore<>(name, TypeRef.of(type), initial);
  }

  /** Like {@link #define(String, Class, Supplier)}, for a generic state type. */
  public static <T> DurableStore<T> define(String name, TypeRef<T> type, Supplier<T> initial) {
    return new DurableStore<>(name, type, initial);
  }
}
