/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.jdbc;

import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.ExecutionScan;
import dev.sluice.workflow.spi.TimerRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The read-only queries of inspection ({@link ExecutionScan}, counts by status, one execution's
 * timer) on a session's connection. Kept apart from {@link WorkflowRows}, whose statements serve
 * the runtime's units of work, and prepared on first use, so a session that never inspects pays
 * nothing.
 *
 * <p>Not thread-safe: used by one unit of work at a time, like the session's rows.
 */
final class InspectionRows {
  private final Connection db;
  private final WorkflowDialect dialect;
  private final WorkflowRows rows;
  private final PreparedStatement counts;
  private final PreparedStatement timer;

  InspectionRows(Connection db, WorkflowDialect dialect, WorkflowRows rows) throws SQLException {
    this.db = db;
    this.dialect = dialect;
    this.rows = rows;
    counts =
        SqlNames.prepare(db, dialect, "SELECT status, count(*) FROM wf_execution GROUP BY status");
    timer =
        SqlNames.prepare(
            db, dialect, "SELECT execution_id, due_at FROM wf_timer WHERE execution_id = ?");
  }

  /** The rule of {@link ExecutionScan#includes} and its order, as one query. */
  List<ExecutionRecord> executions(ExecutionScan scan) throws SQLException {
    try (PreparedStatement st = SqlNames.prepare(db, dialect, query(scan))) {
      int i = 1;
      for (ExecutionStatus s : scan.statuses()) {
        st.setString(i++, s.code());
      }
      if (!scan.idPrefix().isEmpty()) {
        // substr counts characters (code points) in both databases.
        st.setInt(i++, scan.idPrefix().codePointCount(0, scan.idPrefix().length()));
        st.setString(i++, scan.idPrefix());
      }
      if (scan.after() != null) {
        st.setLong(i++, scan.after().createdAt());
        st.setLong(i++, scan.after().createdAt());
        st.setString(i++, scan.after().id());
      }
      st.setInt(i, scan.limit());
      return RowLists.list(st, rows::execution);
    }
  }

  private String query(ExecutionScan scan) {
    StringBuilder sql =
        new StringBuilder("SELECT ")
            .append(WorkflowRows.EXECUTION_COLUMNS)
            .append(" FROM wf_execution WHERE 1 = 1");
    if (!scan.statuses().isEmpty()) {
      sql.append(" AND status IN (")
          .append(String.join(", ", Collections.nCopies(scan.statuses().size(), "?")))
          .append(')');
    }
    if (!scan.idPrefix().isEmpty()) {
      // Not LIKE: SQLite's LIKE ignores ASCII case, and the prefix would need escaping.
      sql.append(" AND substr(id, 1, ?) = ?");
    }
    if (scan.after() != null) {
      sql.append(" AND (created_at < ? OR (created_at = ? AND id < ?))");
    }
    return sql.append(" ORDER BY created_at DESC, id DESC ").append(dialect.limit()).toString();
  }

  Map<ExecutionStatus, Long> counts() throws SQLException {
    Map<ExecutionStatus, Long> out = new EnumMap<>(ExecutionStatus.class);
    try (ResultSet rs = counts.executeQuery()) {
      while (rs.next()) {
        out.put(ExecutionStatus.ofCode(rs.getString(1)), rs.getLong(2));
      }
    }
    return out;
  }

  Optional<TimerRecord> timer(String executionId) throws SQLException {
    timer.setString(1, executionId);
    List<TimerRecord> found =
        RowLists.list(timer, rs -> new TimerRecord(rs.getString(1), rs.getLong(2)));
    return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
  }
}
