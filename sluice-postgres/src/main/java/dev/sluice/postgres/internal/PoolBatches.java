/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.LimiterConfig;
import dev.sluice.OwnerLostException;
import dev.sluice.SluiceException;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolOutcome;
import dev.sluice.spi.support.GroupCommitter;
import dev.sluice.spi.support.PendingOutcome;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The coordinator's side of a pool view: each batch of queued commands is one transaction ({@link
 * BatchTransaction}) in which {@link BatchApplier} applies them; this class completes the callers'
 * futures from what it did, tells the pool view which of this JVM's owners were lost and which to
 * wake, and fails the batch's commands when it failed.
 *
 * <p>Not thread-safe: runs on the coordinator thread only.
 */
final class PoolBatches implements GroupCommitter.Store<PoolBatches.Op<?>> {
  /** A queued command and its caller's future. */
  record Op<R>(PoolCommand<R> command, PendingOutcome<R> result) {}

  private final PgPool view;
  private final PgSettings settings;
  private final BatchApplier applier;
  private final BatchTransaction transaction;

  PoolBatches(PgPool view, PgSettings settings, LimiterConfig config, PoolRows rows, String token) {
    this.view = view;
    this.settings = settings;
    this.applier = new BatchApplier(view, settings, config, rows, token);
    this.transaction = new BatchTransaction(settings.dataSource(), rows);
  }

  long sequence() {
    return applier.sequence();
  }

  @Override
  public void run(List<Op<?>> queued) {
    AppliedBatch applied;
    try {
      applied = transaction.run(c -> applier.apply(c, queued));
    } catch (SQLException
        | RuntimeException
        | PgFailures.MalformedStateException
        | BatchTransaction.UnknownCommitException e) {
      applier.forget();
      RuntimeException failure =
          e instanceof SluiceException se ? se : PgFailures.of(settings.describe(), e);
      boolean unknown = e instanceof BatchTransaction.UnknownCommitException;
      List<Op<?>> failed = List.copyOf(queued); // the committer reuses its list
      // Completed off this thread: the limiter answers a failure by taking back its waiting
      // requests, and a withdrawal sent from here would run at once, before an acquire of the same
      // request that is still queued, which would then stay in the store for nobody.
      view.dispatch(
          () -> {
            for (Op<?> op : failed) {
              op.result().completeExceptionally(failure);
            }
            if (unknown) {
              // What the batch did may be in the store although its callers were told it failed:
              // the owners that sent it give up, so that what they left behind is reclaimed.
              for (Op<?> op : failed) {
                view.ownerLost(op.command().owner());
              }
            }
          });
      return;
    }
    if (applied == null) {
      return;
    }
    applier.committed(applied);
    view.watchHolders(applied.state());
    Set<String> lapsed = lapsed(applied);
    for (int i = 0; i < applied.batch().size(); i++) {
      Op<?> op = applied.batch().get(i);
      String owner = op.command().owner();
      complete(
          op,
          lapsed.contains(owner)
              ? new OwnerLostException(settings.pool(), owner)
              : applied.results().get(i));
    }
    for (String owner : applied.lost()) {
      view.ownerLost(owner);
    }
    for (String owner : lapsed) {
      view.ownerLost(owner);
    }
    if (applied.changed()) {
      view.wakeLocal(applied.affected());
    }
  }

  /**
   * The owners of the batch whose heartbeat may have lapsed since it committed (their JVM was
   * stopped or paused before it could deliver the outcomes): what it granted them may already be
   * reclaimed, so they admit nothing on it. Each gives up as a lost owner and its JVM goes on as a
   * new one; closing the lost owner lets other JVMs reclaim whatever is left of it.
   */
  private Set<String> lapsed(AppliedBatch applied) {
    long now = System.nanoTime();
    Set<String> lapsed = new HashSet<>();
    for (Op<?> op : applied.batch()) {
      String owner = op.command().owner();
      if (!applied.lost().contains(owner) && !view.surelyAlive(owner, now)) {
        lapsed.add(owner);
      }
    }
    return lapsed;
  }

  @Override
  public void fail(Op<?> op, Throwable cause) {
    op.result()
        .completeExceptionally(
            cause instanceof SluiceException se ? se : PgFailures.of(settings.describe(), cause));
  }

  @Override
  public RuntimeException closed() {
    return view.closedFailure();
  }

  @SuppressWarnings("unchecked")
  private static <R> void complete(Op<R> op, Object result) {
    if (result instanceof RuntimeException e) {
      op.result().completeExceptionally(e);
    } else {
      op.result().complete((PoolOutcome<R>) result);
    }
  }
}
