/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.BackendFailureException;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.PoolSnapshot;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The server ends every connection of the store ({@code pg_terminate_backend}: the batches'
 * connections and the dedicated one) several times while callers run work under the cap. Requests
 * caught by a kill fail with a transient {@link BackendFailureException}; no callback ever runs
 * beyond the cap, the limiter recovers by itself without a reopen, and afterwards the pool holds
 * nothing: no lease or queue entry was lost or leaked.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TerminatedConnectionsTest {
  private static final int CAP = 3;
  private static final int CALLERS = 8;
  private static final int TASKS_EACH = 40;
  private static final int KILLS = 4;

  private final TestDatabase db = TestDatabase.create();

  @AfterEach
  void drop() throws SQLException {
    db.close();
  }

  @Test
  void killedConnectionsLoseNothingAndOverAdmitNothing() throws Exception {
    LimiterConfig config = LimiterConfig.builder().maxConcurrent(CAP).build();
    AtomicInteger running = new AtomicInteger();
    AtomicInteger mostRunning = new AtomicInteger();
    AtomicInteger completed = new AtomicInteger();
    Semaphore killDue = new Semaphore(0);
    Set<Throwable> unexpected = ConcurrentHashMap.newKeySet();
    AtomicInteger transientFailures = new AtomicInteger();
    try (Limiter limiter = Limiter.open(db.store("p").build(), config)) {
      List<CompletableFuture<Void>> callers = new ArrayList<>();
      for (int c = 0; c < CALLERS; c++) {
        callers.add(
            CompletableFuture.runAsync(
                () -> {
                  for (int i = 0; i < TASKS_EACH; i++) {
                    try {
                      limiter.call(
                          () -> {
                            int now = running.incrementAndGet();
                            mostRunning.accumulateAndGet(now, Math::max);
                            spin();
                            running.decrementAndGet();
                            return null;
                          });
                    } catch (BackendFailureException e) {
                      if (e.kind() != BackendFailureException.Kind.TRANSIENT) {
                        unexpected.add(e);
                      }
                      transientFailures.incrementAndGet();
                    } catch (Exception e) {
                      unexpected.add(e);
                    }
                    if (completed.incrementAndGet() % (CALLERS * TASKS_EACH / (KILLS + 1)) == 0) {
                      killDue.release();
                    }
                  }
                }));
      }
      int killed = 0;
      for (int k = 0; k < KILLS; k++) {
        assertThat(killDue.tryAcquire(120, TimeUnit.SECONDS)).as("work goes on").isTrue();
        killed += terminateStoreConnections();
      }
      for (CompletableFuture<Void> f : callers) {
        f.get(120, TimeUnit.SECONDS);
      }
      assertThat(killed).as("connections the server ended").isGreaterThanOrEqualTo(KILLS);
      assertThat(unexpected).as("failures other than transient ones").isEmpty();
      assertThat(mostRunning.get()).as("callbacks running at once").isBetween(1, CAP);

      PoolSnapshot after = limiter.inspect();
      assertThat(after.leases()).as("no lease leaked").isEmpty();
      assertThat(after.waiters()).as("no queue entry leaked").isEmpty();
      List<Lease> all = new ArrayList<>();
      for (int i = 0; i < CAP; i++) {
        all.add(limiter.tryAcquire(1).orElseThrow(() -> new AssertionError("capacity lost")));
      }
      assertThat(limiter.tryAcquire(1)).as("still capped").isEmpty();
      all.forEach(Lease::close);
    }
  }

  /** Ends every backend of the store's data source, the dedicated connection included. */
  private int terminateStoreConnections() throws SQLException {
    try (Connection c = db.connect();
        PreparedStatement st =
            c.prepareStatement(
                "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity"
                    + " WHERE application_name = ? AND pid <> pg_backend_pid()")) {
      st.setString(1, db.applicationName());
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  private static void spin() {
    long until = System.nanoTime() + 200_000;
    while (System.nanoTime() < until) {
      Thread.onSpinWait();
    }
  }
}
