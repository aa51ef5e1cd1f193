/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.workflow.DurableStore;
import dev.sluice.workflow.StoreClient;
import dev.sluice.workflow.StoreSnapshot;
import dev.sluice.workflow.spi.WorkflowSession;
import java.util.function.UnaryOperator;

/**
 * A durable store's document for code outside workflows: each call is one unit of work on the
 * runtime's session. Thread-safe; every call blocks on the store.
 */
final class RuntimeStoreClient<T> implements StoreClient<T> {
  private final DocumentCodec<T> doc;
  private final WorkflowSession session;
  private final Runnable checkOpen;

  /**
   * @param checkOpen throws {@link IllegalStateException} once the runtime is closed
   */
  RuntimeStoreClient(DocumentCodec<T> doc, WorkflowSession session, Runnable checkOpen) {
    this.doc = doc;
    this.session = session;
    this.checkOpen = checkOpen;
  }

  @Override
  public DurableStore<T> definition() {
    return doc.store();
  }

  @Override
  public String id() {
    return doc.id();
  }

  @Override
  public StoreSnapshot<T> get() {
    checkOpen.run();
    StoreUnits.Document d = doc.document();
    return doc.decode(session.transact(tx -> StoreUnits.current(tx, d)));
  }

  @Override
  public StoreSnapshot<T> update(UnaryOperator<T> updater) {
    return apply(null, updater);
  }

  @Override
  public StoreSnapshot<T> update(String idempotencyKey, UnaryOperator<T> updater) {
    return apply(Names.check("idempotencyKey", idempotencyKey), updater);
  }

  private StoreSnapshot<T> apply(String key, UnaryOperator<T> updater) {
    checkOpen.run();
    UnaryOperator<String> fn = doc.updater(updater);
    StoreUnits.Document d = doc.document();
    StoreUnits.External r = session.transact(tx -> StoreUnits.updateFromOutside(tx, d, key, fn));
    if (r instanceof StoreUnits.Threw t) {
      throw t.failure();
    }
    return doc.decode(((StoreUnits.Changed) r).snapshot());
  }

  @Override
  public String toString() {
    return "StoreClient[" + doc.store().name() + "/" + doc.id() + "]";
  }
}
