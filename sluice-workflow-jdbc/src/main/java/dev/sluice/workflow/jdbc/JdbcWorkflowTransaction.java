/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.jdbc;

import dev.sluice.workflow.spi.Change;
import dev.sluice.workflow.spi.DocumentRecord;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.ReceiptRecord;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.TimerRecord;
import dev.sluice.workflow.spi.WaiterRecord;
import dev.sluice.workflow.spi.WorkflowTransaction;
import dev.sluice.workflow.spi.WorkflowVersion;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One unit of work's view of a workflow store's rows, inside a database transaction the store's
 * session began (SQLite: {@code BEGIN IMMEDIATE} under the directory's gate). SQL failures leave as
 * {@link SqlFailure} for the session to roll back and report. Whether an owner is dead is the
 * session's question: it knows how its database proves a death.
 *
 * <p>Not thread-safe; valid only while its unit runs, until {@link #end()}.
 */
public final class JdbcWorkflowTransaction implements WorkflowTransaction {
  private final WorkflowRows rows;
  private final long now;
  private final String ownerId;
  private final OwnerProof ownerDead;
  private final boolean lockExecutions;
  private final EnumSet<Change> changes = EnumSet.noneOf(Change.class);
  private boolean ended;

  // Read ahead where the dialect does (WorkflowDialect#readsAhead): what a claim reads next, read
  // in the same round trip as what it reads now, kept until this unit writes anything, so each
  // answer is what the separate read would have found at the time it was read.
  private Set<String> aheadOwners;
  private Map<String, WorkflowRows.StepsRead> aheadSteps = Map.of();
  private OptionalLong aheadNextTimer;
  private WorkflowRows.TimersAndOwners aheadTimers;
  private long aheadTimersUpTo;
  private int aheadTimersLimit;
  private boolean claimLeftMore = true;
  private Map<String, Boolean> aheadDead;
  private WorkflowRows.ExecutionRead aheadExecution;

  // Deletes held back where the dialect runs several statements in one call (readsAhead), sent
  // with this unit's next statement: a completion's timer and waiter deletes ride with its
  // execution write, one round trip instead of three. Any other use of the transaction, and the
  // unit's end (flush), sends them first, so every read sees them as if sent at once.
  private String heldTimerDelete;
  private String heldWaiterDelete;

  // A write held back the same way, where the dialect reads ahead: a step or an execution write,
  // sent with the unit's next statement, or, as the last write of a batch's only unit, with the
  // commit (takeLastWrite).
  private HeldWrite heldWrite;

  /**
   * A transaction for one unit of work.
   *
   * @param rows the session's rows
   * @param now the store's time for the unit, epoch milliseconds
   * @param ownerId the session's owner
   * @param ownerDead answers {@link #ownerDead}: true only with proof of the owner's death
   */
  public JdbcWorkflowTransaction(
      WorkflowRows rows, long now, String ownerId, OwnerProof ownerDead) {
    this(rows, now, ownerId, ownerDead, false);
  }

  /**
   * A transaction for one unit of work; with {@code lockExecutions}, for a unit of {@link
   * dev.sluice.workflow.spi.WorkflowSession#transactOn}: every read of an execution locks its row
   * where the dialect locks rows ({@link WorkflowDialect#rowLock()}), so that units of the same
   * execution that run concurrently take turns.
   *
   * @param rows the session's rows
   * @param now the store's time for the unit, epoch milliseconds
   * @param ownerId the session's owner
   * @param ownerDead answers {@link #ownerDead}: true only with proof of the owner's death
   * @param lockExecutions whether reads of executions lock their rows
   */
  public JdbcWorkflowTransaction(
      WorkflowRows rows, long now, String ownerId, OwnerProof ownerDead, boolean lockExecutions) {
    this.rows = rows;
    this.now = now;
    this.ownerId = ownerId;
    this.ownerDead = ownerDead;
    this.lockExecutions = lockExecutions;
  }

  /**
   * An SQL failure inside a unit of work; the session rolls back and reports it ({@link
   * #getCause()} is the {@link SQLException}).
   */
  public static final class SqlFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SqlFailure(SQLException cause) {
      super(cause);
    }

    /** The SQL failure. */
    public SQLException sql() {
      return (SQLException) getCause();
    }
  }

  /** How the session proves an owner dead, possibly with a query in the unit's transaction. */
  @FunctionalInterface
  public interface OwnerProof {
    /**
     * Whether {@code owner} is proven dead.
     *
     * @param owner an owner's id
     * @return true only with proof
     * @throws SQLException if the proof's query failed
     */
    boolean dead(String owner) throws SQLException;
  }

  @FunctionalInterface
  private interface Query<T> {
    T run() throws SQLException;
  }

  @FunctionalInterface
  private interface Update {
    void run() throws SQLException;
  }

  private <T> T read(Query<T> q) {
    check();
    try {
      return q.run();
    } catch (SQLException e) {
      throw new SqlFailure(e);
    }
  }

  private void write(Change change, Update u) {
    check();
    changes.add(change);
    forgetAhead();
    try {
      u.run();
    } catch (SQLException e) {
      throw new SqlFailure(e);
    }
  }

  private void forgetAhead() {
    aheadTimers = null;
    aheadOwners = null;
    aheadSteps = Map.of();
    aheadNextTimer = null;
    aheadDead = null;
    aheadExecution = null;
  }

  private void check() {
    if (ended) {
      throw new IllegalStateException("the unit of work this transaction belonged to has ended");
    }
    flush();
  }

  /**
   * Sends the write and the deletes held back for the next statement, if any, in the order they
   * were made; the unit's end calls it before its writes count as done.
   *
   * @throws SqlFailure if a write or delete fails
   */
  void flush() {
    HeldWrite write = heldWrite;
    String timer = heldTimerDelete;
    String waiter = heldWaiterDelete;
    heldWrite = null;
    heldTimerDelete = null;
    heldWaiterDelete = null;
    try {
      if (write != null) {
        write.send();
      }
      if (timer != null) {
        rows.deleteTimer(timer);
      }
      if (waiter != null) {
        rows.documents().deleteWaiter(waiter);
      }
    } catch (SQLException e) {
      throw new SqlFailure(e);
    }
  }

  /**
   * The unit's last write, left for the store to send with its commit, if the unit's only unsent
   * write is one; anything else held is sent now. For the one unit of a batch: if the write then
   * fails, the whole transaction fails, which holds nothing but this unit's work.
   *
   * @return the write to send with the commit, or null
   * @throws SqlFailure if what is sent now fails
   */
  HeldWrite takeLastWrite() {
    if (heldWrite != null && heldTimerDelete == null && heldWaiterDelete == null) {
      HeldWrite last = heldWrite;
      heldWrite = null;
      return last;
    }
    flush();
    return null;
  }

  /** Holds {@code write} back: it goes with the next statement (see {@link #flush()}). */
  private void hold(Change change, HeldWrite write) {
    check();
    changes.add(change);
    forgetAhead();
    heldWrite = write;
  }

  /** Marks a write without sending it: a held delete. */
  private void held() {
    if (ended) {
      throw new IllegalStateException("the unit of work this transaction belonged to has ended");
    }
    changes.add(Change.PROGRESS);
    forgetAhead();
  }

  /**
   * Gives the unit the row of its execution that the store read, and locked, with the statement
   * that began the transaction: the unit's first read of that execution is answered from it, one
   * round trip fewer. Only for a transaction that locks executions, before the unit runs.
   *
   * @param read the row as read
   */
  public void readAhead(WorkflowRows.ExecutionRead read) {
    if (!lockExecutions) {
      throw new IllegalStateException("only a unit that locks its execution reads it ahead");
    }
    aheadExecution = read;
  }

  /** What the unit changed; empty if it wrote nothing (a commit of nothing wakes nobody). */
  public Set<Change> changes() {
    return changes;
  }

  /** Ends the transaction: any later use throws {@link IllegalStateException}. */
  public void end() {
    ended = true;
  }

  @Override
  public long now() {
    return now;
  }

  @Override
  public String ownerId() {
    return ownerId;
  }

  @Override
  public Optional<ExecutionRecord> execution(String id) {
    if (!lockExecutions) {
      return read(() -> rows.execution(id));
    }
    check();
    WorkflowRows.ExecutionRead ahead = aheadExecution;
    aheadExecution = null;
    Optional<ExecutionRecord> locked =
        ahead != null && ahead.id().equals(id) ? ahead.get() : read(() -> rows.lockedExecution(id));
    // A lock counts as a write: a claim beside this unit skipped the row, and its runtime must be
    // woken to look again even if this unit then writes nothing (a superseded worker's write),
    // unless the row is this owner's own claim, which no other claim could take.
    locked.ifPresent(e -> changes.add(Change.ofExecution(e, ownerId)));
    return locked;
  }

  @Override
  public void putExecution(ExecutionRecord execution) {
    String id = execution.id();
    if ((heldTimerDelete == null || heldTimerDelete.equals(id))
        && (heldWaiterDelete == null || heldWaiterDelete.equals(id))
        && (heldTimerDelete != null || heldWaiterDelete != null)) {
      String timer = heldTimerDelete;
      String waiter = heldWaiterDelete;
      heldTimerDelete = null;
      heldWaiterDelete = null;
      // Held deletes exist only where the dialect reads ahead, which holds writes too.
      hold(Change.ofExecution(execution, ownerId), rows.heldExecution(timer, waiter, execution));
      return;
    }
    if (rows.readsAhead()) {
      hold(Change.ofExecution(execution, ownerId), rows.heldExecution(null, null, execution));
      return;
    }
    write(Change.ofExecution(execution, ownerId), () -> rows.putExecution(execution));
  }

  @Override
  public List<ExecutionRecord> claimNext(Set<WorkflowVersion> runnable, int limit) {
    check();
    if (runnable.isEmpty() || limit <= 0) {
      return List.of();
    }
    // A write: the claimed rows are written under the new epoch.
    if (rows.readsAhead()) {
      WorkflowRows.ClaimAhead ahead = read(() -> rows.claimAhead(runnable, limit, ownerId, now));
      forgetAhead();
      claimed(ahead.claimed());
      aheadSteps = ahead.steps();
      aheadNextTimer = ahead.nextTimer();
      claimLeftMore = ahead.leftMore();
      return ahead.claimed();
    }
    WorkflowRows.ClaimedRows rows = read(() -> this.rows.claimNext(runnable, limit, ownerId, now));
    claimed(rows.claimed());
    claimLeftMore = rows.leftMore();
    return rows.claimed();
  }

  @Override
  public boolean claimLeftMore() {
    check();
    return claimLeftMore;
  }

  /** A claim is this owner's progress: it gives no other worker anything to do. */
  private void claimed(List<ExecutionRecord> claimed) {
    if (!claimed.isEmpty()) {
      changes.add(Change.PROGRESS);
    }
  }

  @Override
  public Set<String> claimOwners(String exceptOwner) {
    check();
    if (aheadOwners != null && exceptOwner.equals(ownerId)) {
      Set<String> owners = aheadOwners;
      aheadOwners = null;
      return owners;
    }
    aheadDead = null; // proven with an earlier read: each owner is proven afresh
    return read(() -> rows.claimOwners(exceptOwner));
  }

  @Override
  public int runningCount(String workflow) {
    return read(() -> rows.runningCount(workflow));
  }

  @Override
  public List<ExecutionRecord> runningOf(String owner, int limit) {
    return read(() -> rows.runningOf(owner, limit));
  }

  @Override
  public List<StepRecord> steps(String executionId) {
    check();
    WorkflowRows.StepsRead ahead = aheadSteps.get(executionId);
    if (ahead != null) {
      aheadSteps = Map.of(); // read once: a later read asks the database again
      return ahead.get();
    }
    return read(() -> rows.steps(executionId));
  }

  @Override
  public void putStep(StepRecord step) {
    if (rows.readsAhead()) {
      hold(Change.PROGRESS, rows.heldStep(step));
      return;
    }
    write(Change.PROGRESS, () -> rows.putStep(step));
  }

  /**
   * Gives a claim the due timers and the owners of running claims but this one's that the store
   * read with the statement that began the transaction, before it knew the store time: the timers
   * due at or before {@code upTo}, at most {@code limit}, earliest first. {@link #dueTimers}
   * answers from them when they cover its time and limit, and asks the database otherwise. Before
   * the unit runs.
   *
   * @param read what the store read
   * @param upTo the store time the timers were read up to
   * @param limit the most timers read
   */
  public void readAheadTimers(WorkflowRows.TimersAndOwners read, long upTo, int limit) {
    aheadTimers = read;
    aheadTimersUpTo = upTo;
    aheadTimersLimit = limit;
  }

  /**
   * The timers of {@link #readAheadTimers} due at or before {@code now}, at most {@code limit};
   * null if the read cannot tell them all (it stopped before {@code now}, or at its own limit).
   */
  private List<TimerRecord> aheadDue(List<TimerRecord> read, long now, int limit) {
    if (aheadTimersUpTo < now) {
      return null;
    }
    List<TimerRecord> due = new ArrayList<>();
    for (TimerRecord t : read) {
      if (t.dueAt() > now || due.size() == limit) {
        return due; // sorted: nothing after it is due sooner
      }
      due.add(t);
    }
    return read.size() < aheadTimersLimit || due.size() == limit ? due : null;
  }

  @Override
  public List<TimerRecord> dueTimers(long now, int limit) {
    check();
    WorkflowRows.TimersAndOwners timers = aheadTimers;
    aheadTimers = null;
    List<TimerRecord> due = timers == null ? null : aheadDue(timers.due(), now, limit);
    if (due != null) {
      aheadOwners = timers.owners();
      aheadDead = timers.dead();
      return due;
    }
    if (rows.readsAhead()) {
      // A claim asks next for the owners of running claims but its own.
      WorkflowRows.TimersAndOwners ahead = read(() -> rows.dueTimersAndOwners(now, limit, ownerId));
      aheadOwners = ahead.owners();
      aheadDead = ahead.dead();
      return ahead.due();
    }
    return read(() -> rows.dueTimers(now, limit));
  }

  @Override
  public OptionalLong nextTimer() {
    check();
    if (aheadNextTimer != null) {
      OptionalLong next = aheadNextTimer;
      aheadNextTimer = null;
      return next;
    }
    return read(rows::nextTimer);
  }

  @Override
  public void putTimer(TimerRecord timer) {
    write(Change.WORK, () -> rows.putTimer(timer));
  }

  @Override
  public void deleteTimer(String executionId) {
    if (rows.readsAhead()) {
      if (heldTimerDelete != null) {
        flush();
      }
      held();
      heldTimerDelete = executionId;
      return;
    }
    write(Change.PROGRESS, () -> rows.deleteTimer(executionId));
  }

  @Override
  public List<String> finishedBefore(long cutoff, int limit) {
    return read(() -> rows.finishedBefore(cutoff, limit));
  }

  @Override
  public void deleteExecution(String id) {
    write(Change.PROGRESS, () -> rows.deleteExecution(id));
  }

  @Override
  public Optional<DocumentRecord> document(String store, String id) {
    return read(() -> rows.documents().document(store, id));
  }

  @Override
  public void putDocument(DocumentRecord document) {
    write(Change.PROGRESS, () -> rows.documents().putDocument(document));
  }

  @Override
  public List<WaiterRecord> waiters(String store, String id) {
    return read(() -> rows.documents().waiters(store, id));
  }

  @Override
  public Optional<WaiterRecord> waiter(String executionId) {
    return read(() -> rows.documents().waiter(executionId));
  }

  @Override
  public void putWaiter(WaiterRecord waiter) {
    write(Change.PROGRESS, () -> rows.documents().putWaiter(waiter));
  }

  @Override
  public void deleteWaiter(String executionId) {
    if (rows.readsAhead()) {
      if (heldWaiterDelete != null) {
        flush();
      }
      held();
      heldWaiterDelete = executionId;
      return;
    }
    write(Change.PROGRESS, () -> rows.documents().deleteWaiter(executionId));
  }

  @Override
  public Optional<ReceiptRecord> receipt(String store, String id, String key) {
    return read(() -> rows.documents().receipt(store, id, key));
  }

  @Override
  public void putReceipt(ReceiptRecord receipt) {
    write(Change.PROGRESS, () -> rows.documents().putReceipt(receipt));
  }

  @Override
  public int deleteReceiptsBefore(long cutoff, int limit) {
    // A write only if something went: a purge that finds nothing must not wake every runtime.
    int n = read(() -> rows.documents().deleteReceiptsBefore(cutoff, limit));
    if (n > 0) {
      changes.add(Change.PROGRESS);
      forgetAhead();
    }
    return n;
  }

  @Override
  public boolean ownerDead(String ownerId) {
    check();
    // Proven with the owners' read (each answer once): a death proven there took the owner's lock
    // for this transaction, as the proof here would have.
    Boolean dead = aheadDead == null ? null : aheadDead.remove(ownerId);
    if (dead != null) {
      return dead;
    }
    return read(() -> this.ownerDead.dead(ownerId));
  }

  @Override
  public List<ExecutionRecord> executions(dev.sluice.workflow.spi.ExecutionScan scan) {
    return read(() -> rows.inspection().executions(scan));
  }

  @Override
  public java.util.Map<dev.sluice.workflow.ExecutionStatus, Long> executionCounts() {
    return read(() -> rows.inspection().counts());
  }

  @Override
  public Optional<TimerRecord> timer(String executionId) {
    return read(() -> rows.inspection().timer(executionId));
  }
}
