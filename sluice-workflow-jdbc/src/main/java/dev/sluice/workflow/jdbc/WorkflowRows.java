/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.jdbc;

import dev.sluice.StoreFormatException;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.StepKind;
import dev.sluice.workflow.spi.StepOutcome;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.TimerRecord;
import dev.sluice.workflow.spi.WorkflowVersion;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * The SQL of the workflow rows: one prepared statement per query, in a {@link WorkflowDialect},
 * mapping columns to the SPI's records and back. A row that does not map (an unknown status, a
 * malformed failure) is reported as a {@link StoreFormatException} naming the store and the row,
 * never skipped or repaired. A store reaches the rows through {@link JdbcWorkflowTransaction}.
 *
 * <p>Not thread-safe: used by one session's connection, one unit of work at a time (SQLite: under
 * the directory's gate).
 */
public final class WorkflowRows implements AutoCloseable {
  private static final List<String> EXECUTION_COLUMN_LIST =
      List.of(
          "id",
          "workflow",
          "version",
          "status",
          "input",
          "output",
          "failure",
          "claim_owner",
          "claim_epoch",
          "created_at",
          "queued_at",
          "updated_at",
          "deadline_at");

  static final String EXECUTION_COLUMNS = String.join(", ", EXECUTION_COLUMN_LIST);

  private static final int EXECUTION_PARAMETERS = EXECUTION_COLUMN_LIST.size();

  /** The parameters of a step's write ({@link #bindStep}). */
  private static final int STEP_PARAMETERS = 12;

  private static final String STEP_COLUMNS =
      "execution_id, position, step_key, kind, outcome, payload, failure, attempts, at,"
          + " recorded_at, store, document_id";

  /** The column of {@link #claimAheadQuery} that counts the picked rows: after a step's. */
  private static final int PICKED_COLUMN =
      EXECUTION_COLUMN_LIST.size() + STEP_COLUMNS.split(",\\s*").length + 1;

  /** The codes of the finished statuses, as an SQL list; the partial index uses the same text. */
  static final String FINISHED =
      java.util.Arrays.stream(ExecutionStatus.values())
          .filter(ExecutionStatus::isTerminal)
          .map(s -> "'" + s.code() + "'")
          .collect(java.util.stream.Collectors.joining(", "));

  private static final String CLAIM_OWNERS =
      "SELECT DISTINCT claim_owner FROM wf_execution"
          + " WHERE status = 'running' AND claim_owner <> ? ORDER BY claim_owner";

  private static final String NEXT_TIMER = "SELECT min(due_at) FROM wf_timer";

  private static final String EXECUTION_BY_ID =
      "SELECT " + EXECUTION_COLUMNS + " FROM wf_execution WHERE id = ?";

  private static final String SCHEMA_READ = "SELECT value FROM sluice_meta WHERE key = 'schema'";

  private final Connection db;
  private final String store;
  private final WorkflowDialect dialect;
  private final PreparedStatement execution;
  private final PreparedStatement lockedExecution;
  private final PreparedStatement putExecution;
  private final PreparedStatement putExecutionAfterDeletes;
  private final String lockedExecutionQuery;
  private final String putExecutionSql;
  private final String putExecutionAfterDeletesSql;
  private final String putStepSql;
  private final OwnerDeaths deaths;
  private final PreparedStatement claimOwners;
  private final PreparedStatement runningOf;
  private final PreparedStatement runningCount;
  private final PreparedStatement steps;
  private final PreparedStatement putStep;
  private final PreparedStatement dueTimers;
  private final PreparedStatement dueTimersAndOwners;
  private final String dueTimersAndOwnersQuery;

  /**
   * The claim's statement as sent, by the runnable versions it names: rendering the names takes a
   * regular expression over the whole text, which claims would otherwise pay each time. A dialect
   * claims one way (ahead or not), so one map serves; the versions a runtime can run are few.
   */
  private final Map<Map<String, List<Integer>>, String> claimStatements =
      new java.util.LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Map<String, List<Integer>>, String> eldest) {
          return size() > 64;
        }
      };

  private final PreparedStatement nextTimer;
  private final PreparedStatement putTimer;
  private final PreparedStatement deleteTimer;
  private final PreparedStatement finishedBefore;
  private final PreparedStatement deleteSteps;
  private final PreparedStatement deleteExecution;
  private final DocumentRows documents;
  private final PreparedStatement schema;
  private InspectionRows inspection;

  /**
   * Prepares the statements on {@code db}.
   *
   * @param db the session's connection; closed by {@link #close()}
   * @param store names the store in messages
   * @param dialect the database's dialect
   * @throws SQLException if a statement cannot be prepared
   */
  public WorkflowRows(Connection db, String store, WorkflowDialect dialect) throws SQLException {
    this(db, store, dialect, null);
  }

  /**
   * How a server database proves the owners of running claims dead in the statement that reads
   * them, as {@link JdbcWorkflowTransaction.OwnerProof#dead} would one by one.
   *
   * @param deadSql a boolean SQL expression over the owner column {@code o.claim_owner}, with one
   *     {@code ?}: the array of {@code local}'s owners, whose locks are not tried
   * @param local this JVM's owners, read at each claim
   */
  public record OwnerDeaths(String deadSql, java.util.function.Supplier<Set<String>> local) {}

  /**
   * Prepares the statements on {@code db}; where claims read ahead and {@code deaths} is given, the
   * read of the owners of running claims proves each dead or alive too.
   *
   * @param db the session's connection; closed by {@link #close()}
   * @param store names the store in messages
   * @param dialect the database's dialect
   * @param deaths how owners are proven dead with their read, or null
   * @throws SQLException if a statement cannot be prepared
   */
  public WorkflowRows(Connection db, String store, WorkflowDialect dialect, OwnerDeaths deaths)
      throws SQLException {
    this.db = db;
    this.deaths = dialect.readsAhead() ? deaths : null;
    this.store = store;
    this.dialect = dialect;
    execution = SqlNames.prepare(db, dialect, EXECUTION_BY_ID);
    lockedExecutionQuery = SqlNames.render(EXECUTION_BY_ID + dialect.rowLock(), dialect);
    lockedExecution =
        dialect.rowLock().isEmpty()
            ? execution
            : SqlNames.prepare(db, dialect, EXECUTION_BY_ID + dialect.rowLock());
    String upsertExecution = dialect.upsert("wf_execution", EXECUTION_COLUMN_LIST, List.of("id"));
    String afterDeletes =
        "DELETE FROM wf_timer WHERE execution_id = ?;"
            + " DELETE FROM wf_waiter WHERE execution_id = ?; "
            + upsertExecution;
    putExecution = SqlNames.prepare(db, dialect, upsertExecution);
    putExecutionSql = SqlNames.render(upsertExecution, dialect);
    putExecutionAfterDeletes =
        dialect.readsAhead() ? SqlNames.prepare(db, dialect, afterDeletes) : null;
    putExecutionAfterDeletesSql = SqlNames.render(afterDeletes, dialect);
    claimOwners = SqlNames.prepare(db, dialect, CLAIM_OWNERS);
    runningCount =
        SqlNames.prepare(
            db,
            dialect,
            "SELECT count(*) FROM wf_execution WHERE status = 'running' AND workflow = ?");
    runningOf =
        SqlNames.prepare(
            db,
            dialect,
            "SELECT "
                + EXECUTION_COLUMNS
                + " FROM wf_execution"
                + " WHERE status = 'running' AND claim_owner = ? ORDER BY id "
                + dialect.limit());
    steps =
        SqlNames.prepare(
            db,
            dialect,
            "SELECT " + STEP_COLUMNS + " FROM wf_step WHERE execution_id = ? ORDER BY position");
    String upsertStep =
        dialect.upsert(
            "wf_step",
            List.of(
                "execution_id",
                "position",
                "step_key",
                "kind",
                "outcome",
                "payload",
                "failure",
                "attempts",
                "at",
                "recorded_at",
                "store",
                "document_id"),
            List.of("execution_id", "position"));
    putStep = SqlNames.prepare(db, dialect, upsertStep);
    putStepSql = SqlNames.render(upsertStep, dialect);
    dueTimers = SqlNames.prepare(db, dialect, dueTimersQuery(dialect));
    String timersAndOwners =
        dueTimersQuery(dialect)
            + "; "
            + (this.deaths == null
                ? CLAIM_OWNERS
                : "SELECT o.claim_owner, "
                    + this.deaths.deadSql()
                    + " FROM (SELECT DISTINCT claim_owner FROM wf_execution"
                    + " WHERE status = 'running' AND claim_owner <> ?) o"
                    + " ORDER BY o.claim_owner");
    dueTimersAndOwnersQuery = SqlNames.render(timersAndOwners, dialect);
    dueTimersAndOwners =
        dialect.readsAhead() ? SqlNames.prepare(db, dialect, timersAndOwners) : null;
    nextTimer = SqlNames.prepare(db, dialect, NEXT_TIMER);
    putTimer =
        SqlNames.prepare(
            db,
            dialect,
            dialect.upsert("wf_timer", List.of("execution_id", "due_at"), List.of("execution_id")));
    deleteTimer = SqlNames.prepare(db, dialect, "DELETE FROM wf_timer WHERE execution_id = ?");
    finishedBefore =
        SqlNames.prepare(
            db,
            dialect,
            // Named: the planner would otherwise take wf_execution_by_status for the IN and sort
            // every finished row; the partial index answers in order, one seek for LIMIT 1.
            "SELECT id FROM wf_execution"
                + dialect.indexHint("wf_execution_finished")
                + " WHERE status IN ("
                + FINISHED
                + ")"
                + " AND updated_at < ? ORDER BY updated_at, id "
                + dialect.limit());
    deleteSteps = SqlNames.prepare(db, dialect, "DELETE FROM wf_step WHERE execution_id = ?");
    deleteExecution = SqlNames.prepare(db, dialect, "DELETE FROM wf_execution WHERE id = ?");
    documents = new DocumentRows(db, store, dialect);
    schema = SqlNames.prepare(db, dialect, SCHEMA_READ);
  }

  /**
   * Checks, inside a transaction, that the store still has the schema this library writes: a newer
   * library may have migrated it while this process ran, and this one must then stop writing rather
   * than write rows of a schema it does not know.
   *
   * @throws StoreFormatException naming the store and both versions
   * @throws SQLException if the read fails
   */
  public void checkSchema() throws SQLException {
    String found;
    try (ResultSet rs = schema.executeQuery()) {
      found = rs.next() ? rs.getString(1) : null;
    }
    checkSchema(found);
  }

  /**
   * The read of {@link #checkSchema()} as a scalar subquery in the dialect's names, for a store
   * that reads the schema in the same statement as something else (one round trip fewer).
   *
   * @param dialect the database's dialect
   * @return {@code (SELECT value FROM … WHERE key = 'schema')}
   */
  public static String schemaRead(WorkflowDialect dialect) {
    return "(" + SqlNames.render(SCHEMA_READ, dialect) + ")";
  }

  /**
   * Like {@link #checkSchema()}, with the version the store read itself ({@link #schemaRead}).
   *
   * @param found the schema's recorded value, or {@code null} if there is none
   * @throws StoreFormatException naming the store and both versions
   */
  public void checkSchema(String found) {
    if (!Integer.toString(WorkflowTables.VERSION).equals(found)) {
      throw new StoreFormatException(
          "workflow store "
              + store
              + " now has schema version '"
              + found
              + "' (another process migrated it); this Sluice writes version "
              + WorkflowTables.VERSION
              + " and stops here; nothing was written");
    }
  }

  /** The rows of durable stores, on the same connection. */
  DocumentRows documents() {
    return documents;
  }

  Optional<ExecutionRecord> execution(String id) throws SQLException {
    execution.setString(1, id);
    List<ExecutionRecord> found = executions(execution);
    return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
  }

  /** Reads an execution and, where the dialect locks rows, locks it until the transaction ends. */
  Optional<ExecutionRecord> lockedExecution(String id) throws SQLException {
    lockedExecution.setString(1, id);
    List<ExecutionRecord> found = executions(lockedExecution);
    return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
  }

  /**
   * The query of {@link #lockedExecution}, for a store that sends it with the statement that begins
   * a transaction: one parameter, the execution's id; its rows go to {@link #executionFrom}.
   */
  public String lockedExecutionQuery() {
    return lockedExecutionQuery;
  }

  /**
   * The query of one execution's row without a lock, in the dialect's names, for a store that reads
   * it in a statement of its own: one parameter, the execution's id; its rows go to {@link
   * #executionFrom}.
   *
   * @param dialect the database's dialect
   * @return the query
   */
  public static String executionQuery(WorkflowDialect dialect) {
    return SqlNames.render(EXECUTION_BY_ID, dialect);
  }

  /**
   * What {@link #lockedExecutionQuery} or {@link #executionQuery} found: the row, none, or why the
   * row is unreadable (thrown when the unit reads it, as {@link #lockedExecution} would have thrown
   * it).
   *
   * @param id the execution's id
   * @param rs the query's rows
   * @return the read
   * @throws SQLException if the rows cannot be read
   */
  public ExecutionRead executionFrom(String id, ResultSet rs) throws SQLException {
    if (!rs.next()) {
      return new ExecutionRead(id, Optional.empty(), null);
    }
    try {
      return new ExecutionRead(id, Optional.of(execution(rs)), null);
    } catch (StoreFormatException e) {
      return new ExecutionRead(id, Optional.empty(), e);
    }
  }

  /**
   * An execution's row as read ahead of the unit that asks for it.
   *
   * @param id the execution's id
   * @param row the row, if there is one and it is readable
   * @param unreadable why the row is unreadable, or null
   */
  public record ExecutionRead(
      String id, Optional<ExecutionRecord> row, StoreFormatException unreadable) {
    /**
     * The row, or the failure the read would have thrown.
     *
     * @return the row, if there is one
     * @throws StoreFormatException if the row is unreadable
     */
    public Optional<ExecutionRecord> get() {
      if (unreadable != null) {
        throw unreadable;
      }
      return row;
    }
  }

  void putExecution(ExecutionRecord e) throws SQLException {
    bindExecution(putExecution, 0, e);
    putExecution.executeUpdate();
  }

  /** The runnable versions grouped by workflow, in a stable order: the claim query's shape. */
  private static Map<String, List<Integer>> byWorkflow(Set<WorkflowVersion> runnable) {
    Map<String, List<Integer>> versions = new TreeMap<>();
    for (WorkflowVersion v : runnable) {
      versions.computeIfAbsent(v.workflow(), w -> new ArrayList<>()).add(v.version());
    }
    return versions;
  }

  /**
   * Binds a claim query's parameters: the time, each workflow with its versions, the limit.
   *
   * @return the index of the next parameter
   */
  private static int bindClaim(
      PreparedStatement st, long now, Map<String, List<Integer>> versions, int limit)
      throws SQLException {
    int i = 1;
    st.setLong(i++, now);
    for (Map.Entry<String, List<Integer>> e : versions.entrySet()) {
      st.setString(i++, e.getKey());
      for (int version : e.getValue()) {
        st.setInt(i++, version);
      }
    }
    st.setInt(i++, limit);
    return i;
  }

  /**
   * Deletes the timer of execution {@code timerOf} and the waiter of {@code waiterOf} (none where
   * null), then writes {@code e}, in this order and one round trip; only where claims {@link
   * #readsAhead()} (the driver runs {@code ;}-separated statements in one call).
   */
  void putExecutionAfterDeletes(String timerOf, String waiterOf, ExecutionRecord e)
      throws SQLException {
    // "execution_id = NULL" matches no row: an absent delete deletes nothing.
    putExecutionAfterDeletes.setString(1, timerOf);
    putExecutionAfterDeletes.setString(2, waiterOf);
    bindExecution(putExecutionAfterDeletes, 2, e);
    putExecutionAfterDeletes.execute();
  }

  private static void bindExecution(PreparedStatement st, int at, ExecutionRecord e)
      throws SQLException {
    st.setString(at + 1, e.id());
    st.setString(at + 2, e.workflow());
    st.setInt(at + 3, e.version());
    st.setString(at + 4, e.status().code());
    st.setString(at + 5, e.input());
    st.setString(at + 6, e.output());
    st.setString(at + 7, FailureText.write(e.failure()));
    st.setString(at + 8, e.claimOwner());
    st.setLong(at + 9, e.claimEpoch());
    st.setLong(at + 10, e.createdAt());
    st.setLong(at + 11, e.queuedAt());
    st.setLong(at + 12, e.updatedAt());
    st.setLong(at + 13, e.deadlineAt());
  }

  /**
   * The SQL of {@link dev.sluice.workflow.spi.WorkflowTransaction#claimNext}: one ordered, limited
   * query for the eligible executions, its rows locked where the dialect locks them, then each
   * written claimed.
   */
  ClaimedRows claimNext(Set<WorkflowVersion> runnable, int limit, String owner, long now)
      throws SQLException {
    if (runnable.isEmpty() || limit <= 0) {
      return new ClaimedRows(List.of(), false);
    }
    Map<String, List<Integer>> versions = byWorkflow(runnable);
    List<ExecutionRecord> found;
    try (PreparedStatement st =
        db.prepareStatement(
            claimStatements.computeIfAbsent(
                versions, v -> SqlNames.render(claimQuery(v, dialect), dialect)))) {
      // One row past the limit tells whether the limit left any.
      bindClaim(st, now, versions, limit + 1);
      found = executions(st);
    }
    int taken = Math.min(limit, found.size());
    List<ExecutionRecord> claimed = new ArrayList<>(taken);
    for (ExecutionRecord e : found.subList(0, taken)) {
      ExecutionRecord c = e.claimedBy(owner, now);
      putExecution(c);
      claimed.add(c);
    }
    return new ClaimedRows(claimed, found.size() > limit);
  }

  /**
   * What a claim took, in queue order, and whether its limit left an eligible execution.
   *
   * @param claimed the claimed rows as written
   * @param leftMore whether an eligible row was left by the limit
   */
  record ClaimedRows(List<ExecutionRecord> claimed, boolean leftMore) {}

  /**
   * The claim's query for these workflows, with one {@code ?} for each value: the store time, then
   * each workflow's name and versions in the map's order, then the limit. Public so that a
   * dialect's test can read and plan it.
   *
   * @param versions the runnable versions by workflow
   * @param dialect the database's dialect
   * @return the query
   */
  public static String claimQuery(Map<String, List<Integer>> versions, WorkflowDialect dialect) {
    StringJoiner eligible = new StringJoiner(" OR ", "(", ")");
    versions.forEach(
        (workflow, vs) ->
            eligible.add(
                "(workflow = ? AND version IN ("
                    + String.join(", ", Collections.nCopies(vs.size(), "?"))
                    + "))"));
    return "SELECT "
        + EXECUTION_COLUMNS
        + " FROM wf_execution WHERE status = 'queued' AND deadline_at > ? AND "
        + eligible
        + " ORDER BY queued_at, id "
        + dialect.limit()
        + dialect.claimLock();
  }

  /** Whether claims read ahead ({@link WorkflowDialect#readsAhead()}). */
  boolean readsAhead() {
    return dueTimersAndOwners != null;
  }

  /**
   * The due timers and the owners of running claims but one, read together; with whether each owner
   * is proven dead, where the owners' read proves it ({@link OwnerDeaths}), else null.
   *
   * @param due the due timers, earliest first
   * @param owners the owners of running claims but one
   * @param dead whether each owner is proven dead, or null
   */
  public record TimersAndOwners(
      List<TimerRecord> due, Set<String> owners, Map<String, Boolean> dead) {}

  /**
   * The statements of {@link #dueTimersAndOwners}, for a store that sends them with the statement
   * that begins a claim's transaction: bind them with {@link #bindDueTimersAndOwners}, map their
   * rows with {@link #dueTimersAndOwnersFrom}.
   */
  public String dueTimersAndOwnersQuery() {
    return dueTimersAndOwnersQuery;
  }

  /**
   * Binds {@link #dueTimersAndOwnersQuery} in {@code st} from parameter {@code at}.
   *
   * @param st the statement
   * @param at the index of the first parameter
   * @param now timers due at or before this store time are read
   * @param limit at most this many timers, earliest first
   * @param exceptOwner the owner whose claims are left out
   * @return the index after the last parameter bound
   * @throws SQLException if a parameter cannot be bound
   */
  public int bindDueTimersAndOwners(
      PreparedStatement st, int at, long now, int limit, String exceptOwner) throws SQLException {
    int i = at;
    st.setLong(i++, now);
    st.setInt(i++, limit);
    if (deaths != null) {
      st.setArray(i++, db.createArrayOf("text", deaths.local().get().toArray()));
    }
    st.setString(i++, exceptOwner);
    return i;
  }

  /**
   * Maps the rows of {@link #dueTimersAndOwnersQuery}: {@code st}'s current result, then its next.
   *
   * @param st the statement, at the due timers' result
   * @return what they read
   * @throws SQLException if the rows cannot be read
   */
  public TimersAndOwners dueTimersAndOwnersFrom(Statement st) throws SQLException {
    List<TimerRecord> due = new ArrayList<>();
    try (ResultSet rs = st.getResultSet()) {
      while (rs.next()) {
        due.add(new TimerRecord(rs.getString(1), rs.getLong(2)));
      }
    }
    st.getMoreResults();
    Set<String> owners = new java.util.LinkedHashSet<>();
    Map<String, Boolean> dead = deaths == null ? null : new java.util.HashMap<>();
    try (ResultSet rs = st.getResultSet()) {
      while (rs.next()) {
        owners.add(rs.getString(1));
        if (dead != null) {
          dead.put(rs.getString(1), rs.getBoolean(2));
        }
      }
    }
    return new TimersAndOwners(due, owners, dead);
  }

  /**
   * {@link #dueTimers} and {@link #claimOwners}, in this order, in one round trip; only where
   * claims {@link #readsAhead()}.
   */
  TimersAndOwners dueTimersAndOwners(long now, int limit, String exceptOwner) throws SQLException {
    bindDueTimersAndOwners(dueTimersAndOwners, 1, now, limit, exceptOwner);
    dueTimersAndOwners.execute();
    return dueTimersAndOwnersFrom(dueTimersAndOwners);
  }

  /** One claimed execution's steps as read with its claim, or why they are unreadable. */
  record StepsRead(List<StepRecord> steps, StoreFormatException unreadable) {
    /** The steps, or the failure {@link #steps(String)} would have thrown. */
    List<StepRecord> get() {
      if (unreadable != null) {
        throw unreadable;
      }
      return steps;
    }
  }

  /**
   * What a claim that read ahead found: the claimed rows, their steps, the next timer and whether
   * its limit left an eligible execution.
   */
  record ClaimAhead(
      List<ExecutionRecord> claimed,
      Map<String, StepsRead> steps,
      OptionalLong nextTimer,
      boolean leftMore) {}

  /**
   * {@link #claimNext}, then {@link #steps} of each claimed execution and {@link #nextTimer}, in
   * one round trip: a statement that picks the rows (the same ordered, limited, locked query),
   * writes them claimed (the same columns {@link ExecutionRecord#claimedBy} changes) and returns
   * each picked row as it was with its steps, which are mapped here exactly as the separate reads
   * map them; then the next timer. Only where claims {@link #readsAhead()}.
   */
  ClaimAhead claimAhead(Set<WorkflowVersion> runnable, int limit, String owner, long now)
      throws SQLException {
    Map<String, List<Integer>> versions = byWorkflow(runnable);
    List<ExecutionRecord> claimed = new ArrayList<>();
    Map<String, StepsRead> steps = new java.util.HashMap<>();
    OptionalLong next = OptionalLong.empty();
    boolean leftMore = false;
    try (PreparedStatement st =
        db.prepareStatement(
            claimStatements.computeIfAbsent(
                versions,
                v -> SqlNames.render(claimAheadQuery(v, dialect) + "; " + NEXT_TIMER, dialect)))) {
      // One row past the limit is picked (and locked until the claim commits), not claimed: it
      // tells whether the limit left any.
      int i = bindClaim(st, now, versions, limit + 1);
      st.setString(i++, owner);
      st.setLong(i++, now);
      st.setInt(i, limit);
      st.execute();
      try (ResultSet rs = st.getResultSet()) {
        String id = null;
        List<StepRecord> its = null;
        while (rs.next()) {
          leftMore = rs.getInt(PICKED_COLUMN) > limit;
          if (!rs.getString(1).equals(id)) {
            ExecutionRecord picked = execution(rs, 0);
            id = picked.id();
            claimed.add(picked.claimedBy(owner, now));
            its = new ArrayList<>();
            steps.put(id, new StepsRead(its, null));
          }
          if (rs.getString(EXECUTION_COLUMN_LIST.size() + 1) == null
              || steps.get(id).unreadable() != null) {
            continue; // no steps, or one already unreadable
          }
          try {
            its.add(step(rs, EXECUTION_COLUMN_LIST.size()));
          } catch (StoreFormatException unreadable) {
            steps.put(id, new StepsRead(null, unreadable));
          }
        }
      }
      st.getMoreResults();
      try (ResultSet rs = st.getResultSet()) {
        if (rs.next()) {
          long due = rs.getLong(1);
          if (!rs.wasNull()) {
            next = OptionalLong.of(due);
          }
        }
      }
    }
    return new ClaimAhead(claimed, steps, next, leftMore);
  }

  /**
   * The statement of {@link #claimAhead}, with one {@code ?} for each value: the store time, each
   * workflow's name and versions in the map's order, the number of rows to pick (one past the
   * limit), the claiming owner, the store time and the limit. Public so that a dialect's test can
   * read and plan it.
   *
   * @param versions the runnable versions by workflow
   * @param dialect the database's dialect
   * @return the statement
   */
  public static String claimAheadQuery(
      Map<String, List<Integer>> versions, WorkflowDialect dialect) {
    StringJoiner picked = new StringJoiner(", ");
    EXECUTION_COLUMN_LIST.forEach(c -> picked.add("p." + c));
    StringJoiner step = new StringJoiner(", ");
    for (String c : STEP_COLUMNS.split(",\\s*")) {
      step.add("s." + c);
    }
    return "WITH picked AS ("
        + claimQuery(versions, dialect)
        + "), claimed AS (UPDATE wf_execution e SET status = '"
        + ExecutionStatus.RUNNING.code()
        + "', output = NULL, failure = NULL, claim_owner = ?, claim_epoch = e.claim_epoch + 1,"
        + " updated_at = ? FROM (SELECT id FROM picked ORDER BY queued_at, id LIMIT ?) f"
        + " WHERE e.id = f.id RETURNING e.id)"
        + " SELECT "
        + picked
        + ", "
        + step
        + ", (SELECT count(*) FROM picked)"
        + " FROM picked p JOIN claimed c ON c.id = p.id"
        + " LEFT JOIN wf_step s ON s.execution_id = p.id"
        + " ORDER BY p.queued_at, p.id, s.position";
  }

  Set<String> claimOwners(String exceptOwner) throws SQLException {
    claimOwners.setString(1, exceptOwner);
    Set<String> out = new java.util.LinkedHashSet<>();
    try (ResultSet rs = claimOwners.executeQuery()) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  int runningCount(String workflow) throws SQLException {
    runningCount.setString(1, workflow);
    try (ResultSet rs = runningCount.executeQuery()) {
      rs.next();
      return rs.getInt(1);
    }
  }

  List<ExecutionRecord> runningOf(String owner, int limit) throws SQLException {
    runningOf.setString(1, owner);
    runningOf.setInt(2, limit);
    return executions(runningOf);
  }

  List<StepRecord> steps(String executionId) throws SQLException {
    steps.setString(1, executionId);
    return RowLists.list(steps, this::step);
  }

  void putStep(StepRecord s) throws SQLException {
    bindStep(putStep, 0, s);
    putStep.executeUpdate();
  }

  /** {@link #putStep}, held back (see {@link HeldWrite}); only where {@link #readsAhead()}. */
  HeldWrite heldStep(StepRecord s) {
    return held(putStepSql, STEP_PARAMETERS, (st, at) -> bindStep(st, at, s), () -> putStep(s));
  }

  /**
   * {@link #putExecutionAfterDeletes} (or {@link #putExecution} with no delete), held back (see
   * {@link HeldWrite}); only where {@link #readsAhead()}.
   */
  HeldWrite heldExecution(String timerOf, String waiterOf, ExecutionRecord e) {
    if (timerOf == null && waiterOf == null) {
      return held(
          putExecutionSql,
          EXECUTION_PARAMETERS,
          (st, at) -> bindExecution(st, at, e),
          () -> putExecution(e));
    }
    return held(
        putExecutionAfterDeletesSql,
        EXECUTION_PARAMETERS + 2,
        (st, at) -> {
          st.setString(at + 1, timerOf);
          st.setString(at + 2, waiterOf);
          bindExecution(st, at + 2, e);
        },
        () -> putExecutionAfterDeletes(timerOf, waiterOf, e));
  }

  @FunctionalInterface
  private interface Binder {
    void bind(PreparedStatement st, int at) throws SQLException;
  }

  @FunctionalInterface
  private interface Send {
    void run() throws SQLException;
  }

  private static HeldWrite held(String sql, int parameters, Binder binder, Send send) {
    return new HeldWrite() {
      @Override
      public String sql() {
        return sql;
      }

      @Override
      public int bind(PreparedStatement st, int at) throws SQLException {
        binder.bind(st, at);
        return at + parameters;
      }

      @Override
      public void send() throws SQLException {
        send.run();
      }
    };
  }

  private static void bindStep(PreparedStatement st, int at, StepRecord s) throws SQLException {
    st.setString(at + 1, s.executionId());
    st.setInt(at + 2, s.position());
    st.setString(at + 3, s.key());
    st.setString(at + 4, s.kind().code());
    String payload = null;
    String failure = null;
    long attempts = 0;
    long when = 0;
    String documentStore = null;
    String documentId = null;
    String outcome;
    StepOutcome o = s.outcome();
    if (o instanceof StepOutcome.Value v) {
      outcome = "value";
      payload = v.payload();
    } else if (o instanceof StepOutcome.Failed f) {
      outcome = "failed";
      failure = FailureText.write(f.failure());
      attempts = f.attempts();
    } else if (o instanceof StepOutcome.Retrying r) {
      outcome = "retrying";
      failure = FailureText.write(r.lastFailure());
      attempts = r.failedAttempts();
      when = r.retryAt();
    } else if (o instanceof StepOutcome.Snapshot snap) {
      outcome = "snapshot";
      payload = snap.state();
      when = snap.version();
      documentStore = snap.store();
      documentId = snap.documentId();
    } else {
      outcome = "sleep";
      when = ((StepOutcome.Sleep) o).wakeAt();
    }
    st.setString(at + 5, outcome);
    st.setString(at + 6, payload);
    st.setString(at + 7, failure);
    st.setLong(at + 8, attempts);
    st.setLong(at + 9, when);
    st.setLong(at + 10, s.recordedAt());
    st.setString(at + 11, documentStore);
    st.setString(at + 12, documentId);
  }

  private static String dueTimersQuery(WorkflowDialect dialect) {
    return "SELECT execution_id, due_at FROM wf_timer WHERE due_at <= ?"
        + " ORDER BY due_at, execution_id "
        + dialect.limit();
  }

  List<TimerRecord> dueTimers(long now, int limit) throws SQLException {
    dueTimers.setLong(1, now);
    dueTimers.setInt(2, limit);
    return RowLists.list(dueTimers, rs -> new TimerRecord(rs.getString(1), rs.getLong(2)));
  }

  OptionalLong nextTimer() throws SQLException {
    try (ResultSet rs = nextTimer.executeQuery()) {
      if (rs.next()) {
        long due = rs.getLong(1);
        if (!rs.wasNull()) {
          return OptionalLong.of(due);
        }
      }
      return OptionalLong.empty();
    }
  }

  void putTimer(TimerRecord t) throws SQLException {
    putTimer.setString(1, t.executionId());
    putTimer.setLong(2, t.dueAt());
    putTimer.executeUpdate();
  }

  void deleteTimer(String executionId) throws SQLException {
    deleteTimer.setString(1, executionId);
    deleteTimer.executeUpdate();
  }

  List<String> finishedBefore(long cutoff, int limit) throws SQLException {
    finishedBefore.setLong(1, cutoff);
    finishedBefore.setInt(2, limit);
    return RowLists.list(finishedBefore, rs -> rs.getString(1));
  }

  void deleteExecution(String id) throws SQLException {
    deleteTimer(id);
    documents.deleteWaiter(id);
    deleteSteps.setString(1, id);
    deleteSteps.executeUpdate();
    deleteExecution.setString(1, id);
    deleteExecution.executeUpdate();
  }

  private List<ExecutionRecord> executions(PreparedStatement st) throws SQLException {
    return RowLists.list(st, this::execution);
  }

  ExecutionRecord execution(ResultSet rs) throws SQLException {
    return execution(rs, 0);
  }

  /** Maps the execution's columns that follow column {@code at} of {@code rs}. */
  private ExecutionRecord execution(ResultSet rs, int at) throws SQLException {
    String id = rs.getString(at + 1);
    try {
      return new ExecutionRecord(
          id,
          rs.getString(at + 2),
          rs.getInt(at + 3),
          ExecutionStatus.ofCode(rs.getString(at + 4)),
          rs.getString(at + 5),
          rs.getString(at + 6),
          FailureText.read(rs.getString(at + 7)),
          rs.getString(at + 8),
          rs.getLong(at + 9),
          rs.getLong(at + 10),
          rs.getLong(at + 11),
          rs.getLong(at + 12),
          rs.getLong(at + 13));
    } catch (IOException | RuntimeException e) {
      throw corrupt("execution '" + id + "'", e);
    }
  }

  private StepRecord step(ResultSet rs) throws SQLException {
    return step(rs, 0);
  }

  /** Maps the step's columns that follow column {@code at} of {@code rs}. */
  private StepRecord step(ResultSet rs, int at) throws SQLException {
    String where = "step " + rs.getInt(at + 2) + " of execution '" + rs.getString(at + 1) + "'";
    try {
      String outcome = rs.getString(at + 5);
      StepOutcome o =
          switch (outcome) {
            case "value" -> new StepOutcome.Value(rs.getString(at + 6));
            case "failed" ->
                new StepOutcome.Failed(FailureText.read(rs.getString(at + 7)), rs.getInt(at + 8));
            case "retrying" ->
                new StepOutcome.Retrying(
                    rs.getInt(at + 8), rs.getLong(at + 9), FailureText.read(rs.getString(at + 7)));
            case "sleep" -> new StepOutcome.Sleep(rs.getLong(at + 9));
            case "snapshot" ->
                new StepOutcome.Snapshot(
                    rs.getString(at + 11),
                    rs.getString(at + 12),
                    rs.getLong(at + 9),
                    rs.getString(at + 6));
            default ->
                throw new IllegalArgumentException(
                    "unknown outcome '"
                        + outcome
                        + "' (allowed: value, failed, retrying, sleep, snapshot)");
          };
      return new StepRecord(
          rs.getString(at + 1),
          rs.getInt(at + 2),
          rs.getString(at + 3),
          StepKind.ofCode(rs.getString(at + 4)),
          o,
          rs.getLong(at + 10));
    } catch (IOException | RuntimeException e) {
      throw corrupt(where, e);
    }
  }

  private StoreFormatException corrupt(String row, Exception cause) {
    return new StoreFormatException(
        "workflow store " + store + ": " + row + " is unreadable: " + cause.getMessage(), cause);
  }

  /** The read-only queries of inspection, prepared on first use. */
  InspectionRows inspection() throws SQLException {
    if (inspection == null) {
      inspection = new InspectionRows(db, dialect, this);
    }
    return inspection;
  }

  /** Closes the connection, and with it every statement. */
  @Override
  public void close() throws SQLException {
    db.close();
  }
}
