/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.postgres.PostgresStore;
import dev.sluice.postgres.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A JVM stopped while it sends a statement of a batch holds the pool's row lock, and the server's
 * idle-in-transaction timeout does not run for it (the server waits for the rest of a message, or
 * for the Sync of the extended protocol). Here a raw connection stands for such a session: it
 * carries the batch mark of a JVM whose owner's heartbeat lapsed and holds the pool's row lock with
 * no timeout. The live JVM's heartbeat ends that session, so its request is admitted; without that
 * it would wait on the row lock until the stopped JVM ran again.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WedgedHolderTest {
  private static final String STOPPED_OWNER = "pg-stopped-jvm-1";

  private final TestDatabase db = TestDatabase.create(4);
  private final String schema = db.schema();
  private final Tables tables = new Tables(schema, "sluice_");
  private final HikariDataSource dataSource = db.dataSource();

  @AfterEach
  void drop() throws SQLException {
    db.close();
  }

  @Test
  void aLapsedJvmsSessionHoldingThePoolsRowLockIsEndedAndTheOthersGoOn() throws Exception {
    try (Limiter live =
            Limiter.open(
                PostgresStore.builder(dataSource, "p")
                    .schema(schema)
                    .heartbeatTimeout(Duration.ofSeconds(3))
                    .build(),
                LimiterConfig.builder().maxConcurrent(1).build());
        Connection stopped = db.connect()) {
      try (Connection c = dataSource.getConnection();
          PreparedStatement st =
              c.prepareStatement(
                  "INSERT INTO "
                      + tables.owners()
                      + " (owner_id, pool, lock_key, expires_at, locked_in) VALUES (?, 'p', ?,"
                      + " clock_timestamp() - interval '1 second', pg_postmaster_start_time())")) {
        st.setString(1, STOPPED_OWNER);
        st.setLong(2, OwnerIds.lockKey(STOPPED_OWNER));
        st.executeUpdate();
      }
      stopped.setAutoCommit(false);
      try (PreparedStatement st =
          stopped.prepareStatement(
              "SELECT pg_advisory_xact_lock_shared(?), 1 FROM "
                  + tables.pools()
                  + " WHERE pool = 'p' FOR UPDATE")) {
        st.setLong(1, OwnerIds.markKeyOf(STOPPED_OWNER));
        st.executeQuery().close();
      }

      Optional<Lease> lease = live.tryAcquire(1, Duration.ofSeconds(60));
      assertThat(lease).as("admitted while the wedged session held the row lock").isPresent();
      lease.get().close();
      assertThatThrownBy(() -> stopped.createStatement().execute("SELECT 1"))
          .as("the wedged session was ended by the server")
          .isInstanceOf(SQLException.class);
      assertThat(live.inspect().leases()).isEmpty();
    }
  }
}
