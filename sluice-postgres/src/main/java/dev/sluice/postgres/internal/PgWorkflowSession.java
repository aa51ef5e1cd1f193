/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.BackendFailureException;
import dev.sluice.workflow.jdbc.QueuedUnit;
import dev.sluice.workflow.spi.Change;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One runtime's owner of a PostgreSQL workflow store. Its units of work are batched by coordinator
 * threads, each with a connection of its own ({@link WorkflowLane}): units that may touch any row
 * run under the store's transaction-scoped advisory lock taken exclusively, so they run one at a
 * time across every JVM, as the session contract asks; units of one execution ({@link #transactOn}:
 * step records, completions) and claims run under the lock taken shared, on one or more lanes
 * ({@code stepConnections}), a unit of one execution always on the same one, so those of different
 * executions, lanes and JVMs run at once. Claims lock their rows with {@code FOR UPDATE SKIP
 * LOCKED}. The owner's liveness is its advisory lock on this JVM's dedicated connection and its
 * heartbeat; an owner the store declared dead (heartbeat lapsed), or whose last commit's fate is
 * unknown, is replaced by a new owner, and what the old one claimed is taken over by epoch, its
 * later writes refused.
 *
 * <p>Thread-safe. {@link #transact} blocks on the database and on the store's lock.
 */
public final class PgWorkflowSession implements WorkflowSession {
  private static final long FIRST_RETRY_MILLIS = 100;
  private static final long LAST_RETRY_MILLIS = 5_000;

  private final WorkflowHub hub;
  private final PgWorkflowSettings settings;
  private final WorkflowLane store;
  private final List<WorkflowLane> executions;
  private final AtomicInteger nextClaimLane = new AtomicInteger();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Object renewal = new Object();
  private volatile String ownerId;
  private volatile Consumer<Set<Change>> onChange;

  private PgWorkflowSession(WorkflowHub hub, PgWorkflowSettings settings, String ownerId) {
    this.hub = hub;
    this.settings = settings;
    this.ownerId = ownerId;
    PgWorkflowDialect dialect = new PgWorkflowDialect(settings.tables());
    this.store =
        new WorkflowLane(
            this,
            settings,
            dialect,
            hub,
            WorkflowLane.Mode.STORE,
            "sluice-postgres-workflow-" + ownerId);
    List<WorkflowLane> lanes = new ArrayList<>();
    for (int i = 0; i < settings.stepConnections(); i++) {
      lanes.add(
          new WorkflowLane(
              this,
              settings,
              dialect,
              hub,
              WorkflowLane.Mode.EXECUTION,
              "sluice-postgres-workflow-steps-" + i + "-" + ownerId));
    }
    this.executions = List.copyOf(lanes);
  }

  /**
   * Opens a session: joins this JVM's view of the store (creating or checking its tables) and
   * registers a new owner.
   *
   * @param settings where and how
   * @return the session
   */
  public static PgWorkflowSession open(PgWorkflowSettings settings) {
    WorkflowHub hub = WorkflowHub.attach(settings);
    String id;
    try {
      id = hub.register();
    } catch (RuntimeException e) {
      hub.release();
      throw e;
    }
    PgWorkflowSession s = new PgWorkflowSession(hub, settings, id);
    hub.join(s);
    return s;
  }

  @Override
  public String ownerId() {
    return ownerId;
  }

  @Override
  public <R> R transact(Unit<R> unit) {
    return run(store, new QueuedUnit<>(unit));
  }

  /** Under the store's exclusive lock, with the execution's row read (and locked) ahead. */
  @Override
  public <R> R transactReading(String executionId, Unit<R> unit) {
    return run(store, new QueuedUnit<>(unit, executionId));
  }

  @Override
  public <R> R transactOn(String executionId, Unit<R> unit) {
    // One lane per execution: its units stay in order even if a caller does not wait for each.
    WorkflowLane lane = executions.get(Math.floorMod(executionId.hashCode(), executions.size()));
    return run(lane, new QueuedUnit<>(unit, executionId));
  }

  /**
   * Runs the read or claim beside units of other executions and other claims first, in a view that
   * reads and claims only; if it needs more, again under the store's exclusive lock.
   */
  @Override
  public <R> R transactReadOrClaim(Unit<R> unit) {
    try {
      return run(nextSharedLane(), QueuedUnit.claimOf(tx -> unit.apply(new SharedClaimView(tx))));
    } catch (SharedClaimView.NeedsStoreLock e) {
      return transact(unit);
    }
  }

  /** Reads the row in one round trip when it is its lane's only unit; see {@link WorkflowLane}. */
  @Override
  public Optional<ExecutionRecord> readExecution(String id) {
    return run(nextSharedLane(), QueuedUnit.readOf(id));
  }

  /** The lane for a read or claim of no particular execution: each in turn, spreading them. */
  private WorkflowLane nextSharedLane() {
    return executions.get(Math.floorMod(nextClaimLane.getAndIncrement(), executions.size()));
  }

  private <R> R run(WorkflowLane lane, QueuedUnit<R> q) {
    if (closed.get()) {
      throw new IllegalStateException("workflow store session " + ownerId + " is closed");
    }
    if (store.onCoordinator() || executions.stream().anyMatch(WorkflowLane::onCoordinator)) {
      throw new IllegalStateException(
          "a unit of work on this workflow store tried to start another one inside it");
    }
    lane.submit(q);
    return q.await();
  }

  /** What a failed batch's units fail with. */
  BackendFailureException failure(Throwable e) {
    return PgFailures.of(settings.describe() + ": unit of work failed, nothing was written", e);
  }

  /**
   * A batch's commit failed without an answer: it may have happened although the runtime was told
   * its units failed, so this owner gives up what it claimed, and goes on as a new owner.
   */
  void lostCommit(String owner) {
    hub.schedule(() -> renewOwner(owner), 0);
  }

  /**
   * Proves an owner dead inside a unit's transaction on {@code c} (see {@link
   * WorkflowOwners#dead}).
   */
  boolean provenDead(Connection c, String owner) throws SQLException {
    if (owner.equals(ownerId)) {
      return closed.get();
    }
    return WorkflowOwners.dead(c, settings.tables(), owner, hub.localOwners().contains(owner));
  }

  /**
   * How a claim proves the owners of running claims dead in the statement that reads them (see
   * {@link WorkflowOwners#deadOf}), one round trip instead of one per other live owner.
   */
  dev.sluice.workflow.jdbc.WorkflowRows.OwnerDeaths ownerDeathsWithTheirRead() {
    return new dev.sluice.workflow.jdbc.WorkflowRows.OwnerDeaths(
        WorkflowOwners.deadOf(settings.tables(), "o.claim_owner"), hub::localOwners);
  }

  /**
   * Replaces {@code lost} by a new owner: registered first, then the old one dropped, so that its
   * claims are taken over (by this runtime too) while this session goes on. Tried again, 100 ms
   * doubling to 5 s, while the server cannot register it.
   */
  void renewOwner(String lost) {
    renewOwner(lost, FIRST_RETRY_MILLIS);
  }

  private void renewOwner(String lost, long retry) {
    synchronized (renewal) {
      if (closed.get() || !lost.equals(ownerId)) {
        return;
      }
      try {
        ownerId = hub.register();
      } catch (RuntimeException e) {
        hub.schedule(() -> renewOwner(lost, Math.min(retry * 2, LAST_RETRY_MILLIS)), retry);
        return;
      }
    }
    hub.drop(lost);
  }

  /** Runs the change action: something on the store changed, or an owner may have died. */
  void changed(Set<Change> changes) {
    Consumer<Set<Change>> action = onChange;
    if (action != null && !closed.get()) {
      action.accept(changes);
    }
  }

  @Override
  public void onChange(Consumer<Set<Change>> onChange) {
    this.onChange = onChange;
  }

  /**
   * Leaves the store: units queued before still run, then the owner's row and lock go and every
   * session of the store looks again, to take over what it still claims.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    store.close();
    executions.forEach(WorkflowLane::close);
    synchronized (renewal) {
      hub.leave(this, ownerId);
    }
  }

  @Override
  public String toString() {
    return "PgWorkflowSession[" + settings.describe() + ", owner " + ownerId + "]";
  }
}
