/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.jdbc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.sluice.StoreFormatException;
import dev.sluice.workflow.spi.DocumentRecord;
import dev.sluice.workflow.spi.ReceiptRecord;
import dev.sluice.workflow.spi.WaiterRecord;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The SQL of durable stores: documents, the waiters of waiting executions (their watched paths as a
 * JSON array) and the receipts of idempotent updates. A row that does not map is reported as a
 * {@link StoreFormatException} naming the store and the row.
 *
 * <p>Not thread-safe: used by one session's connection one unit of work at a time.
 */
final class DocumentRows {
  private static final JsonFactory JSON = new JsonFactory();
  private static final List<String> WAITER_COLUMN_LIST =
      List.of("execution_id", "step_key", "store", "document_id", "paths", "since_version");
  private static final String WAITER_COLUMNS = String.join(", ", WAITER_COLUMN_LIST);

  private final String storeName;
  private final PreparedStatement document;
  private final PreparedStatement putDocument;
  private final PreparedStatement waiters;
  private final PreparedStatement waiter;
  private final PreparedStatement putWaiter;
  private final PreparedStatement deleteWaiter;
  private final PreparedStatement receipt;
  private final PreparedStatement putReceipt;
  private final PreparedStatement deleteReceipts;

  DocumentRows(Connection db, String storeName, WorkflowDialect dialect) throws SQLException {
    this.storeName = storeName;
    document =
        SqlNames.prepare(
            db,
            dialect,
            "SELECT version, state, updated_at FROM wf_document WHERE store = ? AND id = ?");
    putDocument =
        SqlNames.prepare(
            db,
            dialect,
            dialect.upsert(
                "wf_document",
                List.of("store", "id", "version", "state", "updated_at"),
                List.of("store", "id")));
    waiters =
        SqlNames.prepare(
            db,
            dialect,
            "SELECT "
                + WAITER_COLUMNS
                + " FROM wf_waiter WHERE store = ? AND document_id = ? ORDER BY execution_id");
    waiter =
        SqlNames.prepare(
            db, dialect, "SELECT " + WAITER_COLUMNS + " FROM wf_waiter WHERE execution_id = ?");
    putWaiter =
        SqlNames.prepare(
            db, dialect, dialect.upsert("wf_waiter", WAITER_COLUMN_LIST, List.of("execution_id")));
    deleteWaiter = SqlNames.prepare(db, dialect, "DELETE FROM wf_waiter WHERE execution_id = ?");
    receipt =
        SqlNames.prepare(
            db,
            dialect,
            "SELECT version, state, recorded_at FROM wf_receipt"
                + " WHERE store = ? AND document_id = ? AND key = ?");
    putReceipt =
        SqlNames.prepare(
            db,
            dialect,
            "INSERT INTO wf_receipt (store, document_id, key, version, state, recorded_at)"
                + " VALUES (?, ?, ?, ?, ?, ?)");
    deleteReceipts =
        SqlNames.prepare(
            db,
            dialect,
            "DELETE FROM wf_receipt WHERE (store, document_id, key) IN (SELECT store,"
                + " document_id, key FROM wf_receipt WHERE recorded_at < ? ORDER BY recorded_at "
                + dialect.limit()
                + ")");
  }

  Optional<DocumentRecord> document(String store, String id) throws SQLException {
    document.setString(1, store);
    document.setString(2, id);
    try (ResultSet rs = document.executeQuery()) {
      if (!rs.next()) {
        return Optional.empty();
      }
      try {
        return Optional.of(
            new DocumentRecord(store, id, rs.getLong(1), rs.getString(2), rs.getLong(3)));
      } catch (RuntimeException e) {
        throw corrupt("document '" + id + "' of durable store '" + store + "'", e);
      }
    }
  }

  void putDocument(DocumentRecord d) throws SQLException {
    putDocument.setString(1, d.store());
    putDocument.setString(2, d.id());
    putDocument.setLong(3, d.version());
    putDocument.setString(4, d.state());
    putDocument.setLong(5, d.updatedAt());
    putDocument.executeUpdate();
  }

  List<WaiterRecord> waiters(String store, String id) throws SQLException {
    waiters.setString(1, store);
    waiters.setString(2, id);
    return RowLists.list(waiters, this::waiter);
  }

  Optional<WaiterRecord> waiter(String executionId) throws SQLException {
    waiter.setString(1, executionId);
    try (ResultSet rs = waiter.executeQuery()) {
      return rs.next() ? Optional.of(waiter(rs)) : Optional.empty();
    }
  }

  void putWaiter(WaiterRecord w) throws SQLException {
    putWaiter.setString(1, w.executionId());
    putWaiter.setString(2, w.stepKey());
    putWaiter.setString(3, w.store());
    putWaiter.setString(4, w.documentId());
    putWaiter.setString(5, writePaths(w.paths()));
    putWaiter.setLong(6, w.sinceVersion());
    putWaiter.executeUpdate();
  }

  void deleteWaiter(String executionId) throws SQLException {
    deleteWaiter.setString(1, executionId);
    deleteWaiter.executeUpdate();
  }

  Optional<ReceiptRecord> receipt(String store, String id, String key) throws SQLException {
    receipt.setString(1, store);
    receipt.setString(2, id);
    receipt.setString(3, key);
    try (ResultSet rs = receipt.executeQuery()) {
      if (!rs.next()) {
        return Optional.empty();
      }
      try {
        return Optional.of(
            new ReceiptRecord(store, id, key, rs.getLong(1), rs.getString(2), rs.getLong(3)));
      } catch (RuntimeException e) {
        throw corrupt("receipt '" + key + "' of document '" + id + "'", e);
      }
    }
  }

  void putReceipt(ReceiptRecord r) throws SQLException {
    putReceipt.setString(1, r.store());
    putReceipt.setString(2, r.documentId());
    putReceipt.setString(3, r.key());
    putReceipt.setLong(4, r.version());
    putReceipt.setString(5, r.state());
    putReceipt.setLong(6, r.recordedAt());
    putReceipt.executeUpdate();
  }

  int deleteReceiptsBefore(long cutoff, int limit) throws SQLException {
    deleteReceipts.setLong(1, cutoff);
    deleteReceipts.setInt(2, limit);
    return deleteReceipts.executeUpdate();
  }

  private WaiterRecord waiter(ResultSet rs) throws SQLException {
    String executionId = rs.getString(1);
    try {
      return new WaiterRecord(
          executionId,
          rs.getString(2),
          rs.getString(3),
          rs.getString(4),
          readPaths(rs.getString(5)),
          rs.getLong(6));
    } catch (IOException | RuntimeException e) {
      throw corrupt("waiter of execution '" + executionId + "'", e);
    }
  }

  static String writePaths(List<String> paths) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartArray();
      for (String p : paths) {
        g.writeString(p);
      }
      g.writeEndArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  static List<String> readPaths(String text) throws IOException {
    List<String> out = new ArrayList<>();
    try (JsonParser p = JSON.createParser(text)) {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        throw new IOException("watched paths are not a JSON array: " + text);
      }
      for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
        if (t != JsonToken.VALUE_STRING) {
          throw new IOException("a watched path is not a string: " + text);
        }
        out.add(p.getText());
      }
    }
    return out;
  }

  private StoreFormatException corrupt(String row, Exception cause) {
    return new StoreFormatException(
        "workflow store " + storeName + ": " + row + " is unreadable: " + cause.getMessage(),
        cause);
  }
}
