/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.workflow.DurableStore;
import dev.sluice.workflow.StoreSnapshot;
import dev.sluice.workflow.WorkflowCodec;
import dev.sluice.workflow.WorkflowCodecException;
import dev.sluice.workflow.spi.StepOutcome;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * One document of a durable store between typed values and the encoded states the units of work
 * handle: the document's identity with its initial state, snapshots, and updaters and conditions
 * turned into functions over encoded states. Thread-safe if the codec is.
 *
 * @param <T> the state's type
 */
final class DocumentCodec<T> {
  private final DurableStore<T> store;
  private final String id;
  private final WorkflowCodec codec;

  DocumentCodec(DurableStore<T> store, String id, WorkflowCodec codec) {
    this.store = Objects.requireNonNull(store, "store");
    this.id = Names.check("store document id", id);
    this.codec = codec;
  }

  DurableStore<T> store() {
    return store;
  }

  String id() {
    return id;
  }

  /** The document's identity, with its initial state encoded now (the supplier is user code). */
  StoreUnits.Document document() {
    T initial = store.initial().get();
    if (initial == null) {
      throw new IllegalArgumentException(
          "the initial state of durable store '" + store.name() + "' is null; return a value");
    }
    return new StoreUnits.Document(store.name(), id, codec.encode(initial, store.type()));
  }

  StoreSnapshot<T> decode(StepOutcome.Snapshot s) {
    return new StoreSnapshot<>(codec.decode(s.state(), store.type()), s.version());
  }

  /** The updater over encoded states: decodes, applies, checks for null, encodes. */
  UnaryOperator<String> updater(UnaryOperator<T> updater) {
    Objects.requireNonNull(updater, "updater");
    return state -> {
      T next = StoreCode.run(() -> updater.apply(codec.decode(state, store.type())));
      if (next == null) {
        throw new IllegalArgumentException(
            "the updater of durable store '"
                + store.name()
                + "' document '"
                + id
                + "' returned null; it must return the new state");
      }
      try {
        return codec.encode(next, store.type());
      } catch (WorkflowCodecException e) {
        throw new IllegalArgumentException(
            "the new state of durable store '"
                + store.name()
                + "' document '"
                + id
                + "' cannot be encoded: "
                + e.getMessage(),
            e);
      }
    };
  }

  /** The condition over encoded states. */
  Predicate<String> condition(Predicate<T> condition) {
    Objects.requireNonNull(condition, "condition");
    return state -> StoreCode.run(() -> condition.test(codec.decode(state, store.type())));
  }
}
