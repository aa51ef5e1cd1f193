/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.store;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.sluice.gate.Job;
import dev.sluice.gate.JobEnd;
import dev.sluice.gate.JobOutcome;
import dev.sluice.gate.Ticket;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The records of submitted jobs in {@code gate.db}'s table {@code gate_jobs}, one row per job: what
 * it runs, which process runs it, and once it ended, how. Kept out of the gate's state document,
 * which every transaction rewrites, because finished jobs are kept for days. The table is made on
 * first open, so homes made before it get it without a format change.
 *
 * <p>Not thread-safe: used only inside {@link GateStore#transact}, under the gate.
 */
public final class JobTable {
  private static final JsonFactory JSON = new JsonFactory();
  private static final String COLUMNS =
      "request_id, pool, agent_id, label, command, runner, submitted_at, started_at, ended_at,"
          + " outcome, exit_status, reason, weight";

  private final JobLogs logs;
  private final PreparedStatement insert;
  private final PreparedStatement find;
  private final PreparedStatement all;
  private final PreparedStatement open;
  private final PreparedStatement started;
  private final PreparedStatement end;
  private final PreparedStatement endedBy;
  private final PreparedStatement delete;

  /**
   * A job as stored, with the owner registration of the process that runs it.
   *
   * @param job the job
   * @param runner the runner's owner id: while it lives, only it reports the command's end
   */
  public record Row(Job job, String runner) {}

  private JobTable(Connection db, JobLogs logs) throws SQLException {
    this.logs = logs;
    String select = "SELECT " + COLUMNS + " FROM gate_jobs";
    this.insert =
        db.prepareStatement(
            "INSERT INTO gate_jobs (request_id, pool, agent_id, label, command, runner,"
                + " submitted_at, weight) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    this.find = db.prepareStatement(select + " WHERE request_id = ?");
    this.all = db.prepareStatement(select + " ORDER BY submitted_at, rowid");
    this.open = db.prepareStatement(select + " WHERE ended_at = 0");
    this.started =
        db.prepareStatement(
            "UPDATE gate_jobs SET started_at = ? WHERE request_id = ? AND started_at = 0");
    this.end =
        db.prepareStatement(
            "UPDATE gate_jobs SET ended_at = ?, outcome = ?, exit_status = ?, reason = ?"
                + " WHERE request_id = ? AND ended_at = 0");
    this.endedBy =
        db.prepareStatement(
            "SELECT request_id FROM gate_jobs WHERE ended_at > 0 AND ended_at <= ?");
    this.delete = db.prepareStatement("DELETE FROM gate_jobs WHERE request_id = ?");
  }

  /** Makes the table if missing and prepares its statements; call under the gate. */
  static JobTable open(Connection db, JobLogs logs) throws SQLException {
    try (Statement st = db.createStatement()) {
      st.execute(
          "CREATE TABLE IF NOT EXISTS gate_jobs (request_id TEXT PRIMARY KEY,"
              + " pool TEXT NOT NULL, agent_id TEXT NOT NULL, label TEXT NOT NULL,"
              + " command TEXT NOT NULL, runner TEXT NOT NULL, submitted_at INTEGER NOT NULL,"
              + " started_at INTEGER NOT NULL DEFAULT 0, ended_at INTEGER NOT NULL DEFAULT 0,"
              + " outcome TEXT NOT NULL DEFAULT '', exit_status INTEGER NOT NULL DEFAULT -1,"
              + " reason TEXT NOT NULL DEFAULT '', weight INTEGER NOT NULL)");
      st.execute("CREATE INDEX IF NOT EXISTS gate_jobs_ended ON gate_jobs (ended_at)");
    }
    return new JobTable(db, logs);
  }

  /**
   * Records a new job for a request just made, and creates its empty log.
   *
   * @param ticket the job's request
   * @param command the command and its arguments
   * @param runner the owner id of the process that runs it
   * @param now store time
   * @return the job
   * @throws UncheckedIOException if the log cannot be created; the transaction then fails whole
   */
  public Job insert(Ticket ticket, List<String> command, String runner, long now)
      throws SQLException {
    logs.create(ticket.requestId());
    insert.setString(1, ticket.requestId());
    insert.setString(2, ticket.pool());
    insert.setString(3, ticket.agentId());
    insert.setString(4, ticket.label());
    insert.setString(5, encode(command));
    insert.setString(6, runner);
    insert.setLong(7, now);
    insert.setInt(8, ticket.weight());
    insert.executeUpdate();
    return find(ticket.requestId()).orElseThrow().job();
  }

  /** The job of {@code requestId}, if it is kept. */
  public Optional<Row> find(String requestId) throws SQLException {
    find.setString(1, requestId);
    List<Row> rows = rows(find);
    return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
  }

  /** Every job kept, oldest first. */
  public List<Job> all() throws SQLException {
    return rows(all).stream().map(Row::job).toList();
  }

  /**
   * Records how a job ended, unless it already has an end.
   *
   * @return whether this call recorded it
   */
  public boolean end(String requestId, JobEnd e, long now) throws SQLException {
    end.setLong(1, now);
    end.setString(2, e.outcome().name());
    end.setInt(3, e.exitStatus().orElse(-1));
    end.setString(4, e.reason());
    end.setString(5, requestId);
    return end.executeUpdate() == 1;
  }

  /** Jobs that have not ended. */
  List<Row> open() throws SQLException {
    return rows(open);
  }

  /** Records when a job's command was started, once. */
  void started(String requestId, long now) throws SQLException {
    started.setLong(1, now);
    started.setString(2, requestId);
    started.executeUpdate();
  }

  /** Jobs that ended at or before {@code cutoff}. */
  List<String> endedBy(long cutoff) throws SQLException {
    endedBy.setLong(1, cutoff);
    List<String> out = new ArrayList<>();
    try (ResultSet rs = endedBy.executeQuery()) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  /** Removes a job's record; returns its log, for the caller to remove once this commits. */
  Path delete(String requestId) throws SQLException {
    delete.setString(1, requestId);
    delete.executeUpdate();
    return logs.of(requestId);
  }

  private List<Row> rows(PreparedStatement query) throws SQLException {
    List<Row> out = new ArrayList<>();
    try (ResultSet rs = query.executeQuery()) {
      while (rs.next()) {
        String id = rs.getString(1);
        long startedAt = rs.getLong(8);
        long endedAt = rs.getLong(9);
        JobEnd jobEnd =
            endedAt == 0 ? null : end(rs.getString(10), rs.getInt(11), rs.getString(12));
        Job job =
            new Job(
                id,
                rs.getString(2),
                rs.getInt(13),
                rs.getString(3),
                rs.getString(4),
                decode(rs.getString(5)),
                logs.of(id),
                Instant.ofEpochMilli(rs.getLong(7)),
                startedAt == 0 ? null : Instant.ofEpochMilli(startedAt),
                endedAt == 0 ? null : Instant.ofEpochMilli(endedAt),
                jobEnd);
        out.add(new Row(job, rs.getString(6)));
      }
    }
    return out;
  }

  private static JobEnd end(String outcome, int status, String reason) {
    JobOutcome o = JobOutcome.valueOf(outcome);
    return new JobEnd(
        o, o == JobOutcome.EXITED ? OptionalInt.of(status) : OptionalInt.empty(), reason);
  }

  private static String encode(List<String> command) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartArray();
      for (String arg : command) {
        g.writeString(arg);
      }
      g.writeEndArray();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode a command", e);
    }
    return out.toString();
  }

  private static List<String> decode(String text) throws SQLException {
    List<String> out = new ArrayList<>();
    try (JsonParser p = JSON.createParser(text)) {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        throw new SQLException("gate_jobs.command is not a JSON array: " + text);
      }
      while (p.nextToken() == JsonToken.VALUE_STRING) {
        out.add(p.getText());
      }
      if (p.currentToken() != JsonToken.END_ARRAY) {
        throw new SQLException("gate_jobs.command holds something other than strings: " + text);
      }
    } catch (IOException e) {
      throw new SQLException("gate_jobs.command is not readable: " + e.getMessage(), e);
    }
    return out;
  }
}
