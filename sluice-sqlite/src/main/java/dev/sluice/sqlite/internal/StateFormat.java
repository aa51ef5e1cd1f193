/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import dev.sluice.TraceEvent;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.support.PoolStateCodec;
import dev.sluice.spi.support.StoredPoolState;
import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;

/**
 * The encodings of a pool's state row, each named by the format id a pool records when it is
 * created. A pool keeps its format for life: a newer Sluice reads and writes an older pool in that
 * pool's own format, so older processes on it keep working; an older Sluice refuses a newer pool
 * with a {@link dev.sluice.StoreFormatException} and changes nothing.
 */
enum StateFormat {
  /** JSON text; pools created before the binary row. */
  JSON_V1("sluice-limiter-pool/1") {
    @Override
    void bind(
        PreparedStatement st, int index, PoolState s, long lastPulse, List<TraceEvent> pending)
        throws SQLException {
      st.setString(index, StateCodec.write(s));
    }

    @Override
    boolean keepsPendingTrace() {
      return false;
    }

    @Override
    StoredPoolState read(ResultSet rs, int column) throws SQLException, IOException {
      return StateCodec.read(rs.getString(column));
    }
  },

  /** The compact binary row of {@link PoolStateCodec}. */
  BINARY_V2("sluice-limiter-pool/2") {
    @Override
    void bind(
        PreparedStatement st, int index, PoolState s, long lastPulse, List<TraceEvent> pending)
        throws SQLException {
      st.setBytes(index, PoolStateCodec.write(s, lastPulse, pending));
    }

    @Override
    boolean keepsPendingTrace() {
      return true;
    }

    @Override
    StoredPoolState read(ResultSet rs, int column) throws SQLException, IOException {
      byte[] bytes = rs.getBytes(column);
      if (bytes == null) {
        throw new IOException("malformed pool state: no row value");
      }
      return PoolStateCodec.read(bytes);
    }
  };

  /** The format of new pools. */
  static final StateFormat CURRENT = BINARY_V2;

  private final String id;

  StateFormat(String id) {
    this.id = id;
  }

  /** The id stored in the pool's {@code sluice_meta} table. */
  String id() {
    return id;
  }

  /** The format with this id, or {@code null} if this Sluice does not know it. */
  static StateFormat byId(String id) {
    for (StateFormat f : values()) {
      if (f.id.equals(id)) {
        return f;
      }
    }
    return null;
  }

  /** The ids this Sluice reads, oldest first. */
  static List<String> ids() {
    return Arrays.stream(values()).map(StateFormat::id).toList();
  }

  /**
   * Binds the encoded state as parameter {@code index}, with the version of the last commit that
   * pulsed and the trace entries not yet in the trace table, where the format keeps them.
   */
  abstract void bind(
      PreparedStatement st, int index, PoolState s, long lastPulse, List<TraceEvent> pending)
      throws SQLException;

  /**
   * Whether the row keeps trace entries until they are moved to the trace table; if not, every
   * commit writes its entries to the table.
   */
  abstract boolean keepsPendingTrace();

  /**
   * Decodes the state in {@code column} of the current row.
   *
   * @throws IOException if the value is not a state of this format
   */
  abstract StoredPoolState read(ResultSet rs, int column) throws SQLException, IOException;
}
