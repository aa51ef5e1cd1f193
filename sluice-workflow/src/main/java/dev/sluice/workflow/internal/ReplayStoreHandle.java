/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.workflow.DurableStore;
import dev.sluice.workflow.StoreHandle;
import dev.sluice.workflow.StoreSnapshot;
import dev.sluice.workflow.spi.StepKind;
import dev.sluice.workflow.spi.StepOutcome;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * A durable store's document inside a workflow: each operation is a step of its {@link
 * ReplayContext}, replayed from its record or run as one unit of work ({@link StoreUnits}).
 *
 * <p>Confined to the context's thread.
 */
final class ReplayStoreHandle<T> implements StoreHandle<T> {
  private final ReplayContext ctx;
  private final DocumentCodec<T> doc;

  ReplayStoreHandle(ReplayContext ctx, DocumentCodec<T> doc) {
    this.ctx = ctx;
    this.doc = doc;
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
  public StoreSnapshot<T> get(String key) {
    StepOutcome recorded = ctx.beginStoreStep(key, StepKind.STORE_GET);
    if (recorded != null) {
      return replayed(key, recorded);
    }
    StoreUnits.Document d = doc.document();
    StoreUnits.Step at = ctx.stepAt(key, StepKind.STORE_GET);
    return doc.decode(ctx.runStoreStep(key, (tx, claim) -> StoreUnits.get(tx, claim, at, d)));
  }

  @Override
  public StoreSnapshot<T> update(String key, UnaryOperator<T> updater) {
    Objects.requireNonNull(updater, "updater");
    StepOutcome recorded = ctx.beginStoreStep(key, StepKind.STORE_UPDATE);
    if (recorded != null) {
      return replayed(key, recorded);
    }
    UnaryOperator<String> fn = doc.updater(updater);
    StoreUnits.Document d = doc.document();
    StoreUnits.Step at = ctx.stepAt(key, StepKind.STORE_UPDATE);
    return doc.decode(
        ctx.runStoreStep(key, (tx, claim) -> StoreUnits.update(tx, claim, at, d, fn)));
  }

  @Override
  public StoreSnapshot<T> awaitCondition(
      String key, List<String> watchedPaths, Predicate<T> condition) {
    List<String> paths = DocumentPaths.checkWatched(key, watchedPaths);
    Objects.requireNonNull(condition, "condition");
    StepOutcome recorded = ctx.beginStoreStep(key, StepKind.STORE_AWAIT);
    if (recorded != null) {
      return replayed(key, recorded);
    }
    Predicate<String> test = doc.condition(condition);
    StoreUnits.Document d = doc.document();
    StoreUnits.Step at = ctx.stepAt(key, StepKind.STORE_AWAIT);
    return doc.decode(
        ctx.runStoreStep(key, (tx, claim) -> StoreUnits.await(tx, claim, at, d, paths, test)));
  }

  private StoreSnapshot<T> replayed(String key, StepOutcome recorded) {
    if (recorded instanceof StepOutcome.Failed f) {
      throw Failures.stepFailed(key, f.failure());
    }
    StepOutcome.Snapshot s = (StepOutcome.Snapshot) recorded;
    if (!s.store().equals(doc.store().name()) || !s.documentId().equals(doc.id())) {
      throw ctx.mismatch(
          "execution '"
              + ctx.executionId()
              + "' asked step '"
              + key
              + "' for document '"
              + doc.id()
              + "' of durable store '"
              + doc.store().name()
              + "', but document '"
              + s.documentId()
              + "' of durable store '"
              + s.store()
              + "' was recorded there: the workflow function must ask for the same documents on"
              + " every replay");
    }
    return doc.decode(s);
  }
}
