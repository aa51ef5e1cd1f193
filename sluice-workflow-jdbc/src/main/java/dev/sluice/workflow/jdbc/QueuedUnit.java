/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.jdbc;

import dev.sluice.StoreFormatException;
import dev.sluice.workflow.spi.Change;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.WorkflowSession.Unit;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A unit of work queued for a store's group commit, and the one way every SQL workflow store runs a
 * batch of them: in one database transaction, each unit inside its own savepoint, so a unit that
 * throws loses only its own writes and gets its exception, while an SQL failure of the batch fails
 * every unit with nothing written. Results are kept until the store committed the batch ({@link
 * #complete}): a caller never sees a result its store then failed to commit.
 *
 * <p>The caller's side ({@link #await}) is thread-safe; the batch's side runs on the store's
 * coordinator thread only.
 *
 * @param <R> the unit's result type
 */
public final class QueuedUnit<R> {
  private static final String SAVEPOINT = "SAVEPOINT unit";
  private static final String RELEASE = "RELEASE unit";
  private static final String UNDO = "ROLLBACK TO unit";

  private final Unit<R> unit;
  private final boolean locksExecutions;
  private final String executionId;
  private final String readsOnly;
  private final boolean claims;
  private final CompletableFuture<R> result = new CompletableFuture<>();
  private R value;
  private Throwable refusal;
  private HeldWrite lastWrite;

  /**
   * Queues nothing yet: the store submits it to its coordinator.
   *
   * @param unit the unit of work
   */
  public QueuedUnit(Unit<R> unit) {
    this(unit, false);
  }

  /**
   * Queues nothing yet, like {@link #QueuedUnit(Unit)}, telling the store whether the unit's reads
   * of executions lock their rows (a unit of {@link
   * dev.sluice.workflow.spi.WorkflowSession#transactOn} beside others).
   *
   * @param unit the unit of work
   * @param locksExecutions whether its reads of executions lock their rows
   */
  public QueuedUnit(Unit<R> unit, boolean locksExecutions) {
    this(unit, locksExecutions, null, null, false);
  }

  private QueuedUnit(
      Unit<R> unit, boolean locksExecutions, String executionId, String readsOnly, boolean claims) {
    this.unit = unit;
    this.locksExecutions = locksExecutions;
    this.executionId = executionId;
    this.readsOnly = readsOnly;
    this.claims = claims;
  }

  /**
   * Queues nothing yet: a claim ({@link
   * dev.sluice.workflow.spi.WorkflowSession#transactReadOrClaim}), whose first reads are the due
   * timers and the owners of running claims, so a store may read them ahead ({@link
   * JdbcWorkflowTransaction#readAheadTimers}).
   *
   * @param unit the claim
   * @param <R> the claim's result type
   * @return the unit
   */
  public static <R> QueuedUnit<R> claimOf(Unit<R> unit) {
    return new QueuedUnit<>(unit, false, null, null, true);
  }

  /** Whether the unit is a {@link #claimOf} claim. */
  public boolean claims() {
    return claims;
  }

  /**
   * Queues nothing yet: a unit that only reads one execution's row ({@link
   * dev.sluice.workflow.spi.WorkflowSession#readExecution}). In a batch it runs like any other
   * unit, without locking the row; alone, a store may read the row in a statement of its own and
   * hand it over with {@link #completeRead}.
   *
   * @param executionId the execution to read
   * @return the unit
   */
  public static QueuedUnit<Optional<ExecutionRecord>> readOf(String executionId) {
    Objects.requireNonNull(executionId, "executionId");
    return new QueuedUnit<>(tx -> tx.execution(executionId), false, null, executionId, false);
  }

  /** The execution whose row is all this unit reads, if it is a {@link #readOf} unit. */
  public Optional<String> readsOnly() {
    return Optional.ofNullable(readsOnly);
  }

  /**
   * Hands a {@link #readOf} unit the row its store read for it: the row, or the failure reading it
   * would have thrown.
   *
   * @param read what the store read for this unit's execution
   */
  @SuppressWarnings("unchecked")
  public void completeRead(WorkflowRows.ExecutionRead read) {
    if (readsOnly == null || !readsOnly.equals(read.id())) {
      throw new IllegalStateException("not a read of execution " + read.id());
    }
    try {
      result.complete((R) read.get());
    } catch (StoreFormatException unreadable) {
      result.completeExceptionally(unreadable);
    }
  }

  /**
   * Queues nothing yet: a unit of {@link dev.sluice.workflow.spi.WorkflowSession#transactOn}, whose
   * reads of executions lock their rows and whose first read is of {@code executionId}, so a store
   * may read that row ahead ({@link JdbcWorkflowTransaction#readAhead}).
   *
   * @param unit the unit of work
   * @param executionId the one execution it touches
   */
  public QueuedUnit(Unit<R> unit, String executionId) {
    this(unit, true, Objects.requireNonNull(executionId, "executionId"), null, false);
  }

  /**
   * The last write of a batch's only unit, which {@link #runBegun} left unsent for the caller to
   * send with the commit, in one round trip; null if none. If it then fails, the batch fails.
   */
  public HeldWrite lastWrite() {
    return lastWrite;
  }

  /** Whether the unit's reads of executions lock their rows. */
  public boolean locksExecutions() {
    return locksExecutions;
  }

  /** The one execution the unit touches and reads first, if it said so. */
  public Optional<String> executionId() {
    return Optional.ofNullable(executionId);
  }

  /**
   * Waits for the unit's batch without reacting to interrupts (the batch runs on the coordinator,
   * so its work cannot be abandoned half-way by its caller) and returns its result.
   *
   * @return the unit's result
   * @throws RuntimeException the unit's own exception, or the store's failure
   */
  public R await() {
    try {
      return result.join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }

  /**
   * Fails the unit: its batch failed, or it never ran.
   *
   * @param cause the failure its caller gets
   */
  public void fail(Throwable cause) {
    result.completeExceptionally(cause);
  }

  /** Hands the unit's result, or its refusal, to its caller; call after the batch committed. */
  public void complete() {
    if (refusal != null) {
      result.completeExceptionally(refusal);
    } else {
      result.complete(value);
    }
  }

  /**
   * Runs a batch inside the caller's open transaction, each unit inside its own savepoint.
   *
   * @param st a statement of the transaction's connection
   * @param units the batch, in order
   * @param tx a new transaction view for each unit
   * @param failure what a unit's SQL failure becomes for its caller
   * @return what the units changed, empty if none wrote (a commit of nothing wakes nobody)
   * @throws SQLException if a savepoint cannot be taken or undone: the whole batch then fails
   */
  public static Set<Change> runAll(
      Statement st,
      List<? extends QueuedUnit<?>> units,
      Supplier<JdbcWorkflowTransaction> tx,
      Function<SQLException, RuntimeException> failure)
      throws SQLException {
    return runAll(st, units, tx, failure, false);
  }

  /**
   * Like {@link #runAll(Statement, List, Supplier, Function)}; with {@code fused}, releasing one
   * unit's savepoint and taking the next one's go in one statement string, one round trip for a
   * server database whose driver sends several statements at once (PostgreSQL).
   *
   * @param st a statement of the transaction's connection
   * @param units the batch, in order
   * @param tx a new transaction view for each unit
   * @param failure what a unit's SQL failure becomes for its caller
   * @param fused whether the driver runs {@code "RELEASE unit; SAVEPOINT unit"} in one call
   * @return what the units changed, empty if none wrote (a commit of nothing wakes nobody)
   * @throws SQLException if a savepoint cannot be taken or undone: the whole batch then fails
   */
  public static Set<Change> runAll(
      Statement st,
      List<? extends QueuedUnit<?>> units,
      Supplier<JdbcWorkflowTransaction> tx,
      Function<SQLException, RuntimeException> failure,
      boolean fused)
      throws SQLException {
    return runEach(st, units, q -> tx.get(), failure, fused);
  }

  /**
   * Like {@link #runAll(Statement, List, Supplier, Function, boolean)}, with each unit's
   * transaction view made for it, such as one that locks the rows of executions it reads ({@link
   * #locksExecutions()}).
   *
   * @param st a statement of the transaction's connection
   * @param units the batch, in order
   * @param tx a new transaction view for the unit
   * @param failure what a unit's SQL failure becomes for its caller
   * @param fused whether the driver runs {@code "RELEASE unit; SAVEPOINT unit"} in one call
   * @return what the units changed, empty if none wrote (a commit of nothing wakes nobody)
   * @throws SQLException if a savepoint cannot be taken or undone: the whole batch then fails
   */
  public static Set<Change> runEach(
      Statement st,
      List<? extends QueuedUnit<?>> units,
      Function<QueuedUnit<?>, JdbcWorkflowTransaction> tx,
      Function<SQLException, RuntimeException> failure,
      boolean fused)
      throws SQLException {
    if (units.isEmpty()) {
      return Set.of();
    }
    EnumSet<Change> changes = EnumSet.noneOf(Change.class);
    st.execute(SAVEPOINT);
    for (int i = 0; i < units.size(); i++) {
      QueuedUnit<?> q = units.get(i);
      changes.addAll(q.run(st, tx.apply(q), failure));
      boolean last = i == units.size() - 1;
      if (fused && !last) {
        st.execute(RELEASE + "; " + SAVEPOINT);
      } else {
        st.execute(RELEASE);
        if (!last) {
          st.execute(SAVEPOINT);
        }
      }
    }
    return changes;
  }

  /**
   * Like {@link #runEach}, for a server database that takes a batch's first savepoint in the
   * statement that begins its transaction (with the lock and the clock, one round trip) and ends it
   * with a commit, which ends savepoints too: {@link #savepointFirst} tells the caller whether to
   * take {@code SAVEPOINT unit} there. Between units, releasing one savepoint and taking the next
   * go in one call; the last one is left to the commit. A batch of one unit takes none: if its unit
   * throws, the whole transaction is rolled back (it holds nothing but that unit's work) and the
   * unit's refusal kept, so the caller's commit then commits nothing. Statements of several {@code
   * ;}-separated parts must run in one call on {@code st} (PostgreSQL's driver).
   *
   * @param c the transaction's connection
   * @param st a statement of {@code c}
   * @param units the batch, in order
   * @param tx a new transaction view for the unit
   * @param failure what a unit's SQL failure becomes for its caller
   * @return what the units changed, empty if none wrote (a commit of nothing wakes nobody)
   * @throws SQLException if a savepoint cannot be taken or undone, or the rollback fails: the whole
   *     batch then fails
   */
  public static Set<Change> runBegun(
      Connection c,
      Statement st,
      List<? extends QueuedUnit<?>> units,
      Function<QueuedUnit<?>, JdbcWorkflowTransaction> tx,
      Function<SQLException, RuntimeException> failure)
      throws SQLException {
    if (!savepointFirst(units)) {
      if (units.isEmpty()) {
        return Set.of();
      }
      QueuedUnit<?> only = units.get(0);
      return only.run(c::rollback, tx.apply(only), failure, true);
    }
    EnumSet<Change> changes = EnumSet.noneOf(Change.class);
    for (int i = 0; i < units.size(); i++) {
      QueuedUnit<?> q = units.get(i);
      changes.addAll(q.run(() -> st.execute(UNDO), tx.apply(q), failure, false));
      if (i < units.size() - 1) {
        st.execute(RELEASE + "; " + SAVEPOINT);
      }
    }
    return changes;
  }

  /**
   * Whether {@link #runBegun} expects the caller to have taken {@code SAVEPOINT unit} for the
   * batch's first unit: only when another unit's writes must outlive that unit's refusal.
   *
   * @param units the batch
   * @return whether the batch has more than one unit
   */
  public static boolean savepointFirst(List<?> units) {
    return units.size() > 1;
  }

  /** The statement that takes the first unit's savepoint, for a caller of {@link #runBegun}. */
  public static String savepoint() {
    return SAVEPOINT;
  }

  /** Undoes what a unit that threw wrote: back to its savepoint, or the whole transaction. */
  @FunctionalInterface
  private interface Undo {
    void run() throws SQLException;
  }

  /** Runs the unit inside the savepoint the caller took; the caller releases it. */
  private Set<Change> run(
      Statement st, JdbcWorkflowTransaction tx, Function<SQLException, RuntimeException> failure)
      throws SQLException {
    return run(() -> st.execute(UNDO), tx, failure, false);
  }

  /**
   * Runs the unit; if it throws, {@code undo} takes back its writes. With {@code keepLastWrite}
   * (the batch's only unit), its last write may be left for the caller to send with the commit
   * ({@link #lastWrite()}).
   */
  private Set<Change> run(
      Undo undo,
      JdbcWorkflowTransaction tx,
      Function<SQLException, RuntimeException> failure,
      boolean keepLastWrite)
      throws SQLException {
    Set<Change> changes;
    lastWrite = null;
    try {
      value = unit.apply(tx);
      // Held writes are part of the unit: a failure of theirs undoes it.
      if (keepLastWrite) {
        lastWrite = tx.takeLastWrite();
      } else {
        tx.flush();
      }
      refusal = null;
      changes = tx.changes();
    } catch (Throwable e) {
      // Its writes go, but rows it locked meanwhile may have been skipped by a claim beside it
      // (PostgreSQL): wake the runtimes to look again.
      changes = tx.changes().isEmpty() ? Set.of() : Change.ALL;
      // Only this unit's writes go; if the database already abandoned the whole transaction (a
      // full disk, a lost connection), undoing them fails and so does the batch.
      undoOrFailWithCause(undo, e);
      value = null;
      refusal = e instanceof JdbcWorkflowTransaction.SqlFailure f ? failure.apply(f.sql()) : e;
    } finally {
      tx.end();
    }
    return changes;
  }

  /**
   * Undoes the unit's writes; if that fails, the batch fails with the unit's own SQL failure when
   * it had one: it says why the transaction broke (a connection the server ended is transient),
   * where the undo's failure only says the connection is gone (a pool closes a broken connection's
   * handle, and what it throws then names no SQL state).
   */
  private static void undoOrFailWithCause(Undo undo, Throwable unitFailure) throws SQLException {
    try {
      undo.run();
    } catch (SQLException undoFailure) {
      if (unitFailure instanceof JdbcWorkflowTransaction.SqlFailure f) {
        SQLException cause = f.sql();
        cause.addSuppressed(undoFailure);
        throw cause;
      }
      undoFailure.addSuppressed(unitFailure);
      throw undoFailure;
    }
  }
}
