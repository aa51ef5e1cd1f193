/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterEvent;
import dev.sluice.LimiterOptions;
import dev.sluice.OwnerLostException;
import dev.sluice.PoolSnapshot;
import dev.sluice.ScheduleOptions;
import dev.sluice.testkit.EventRecorder;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Owner liveness by the server's clock, with two data sources standing for two JVMs (each has its
 * own dedicated connection and owners): an owner whose heartbeat lapsed while its JVM lives (here:
 * its row's expiry is moved into the past, as a JVM cut off from the server would leave it) is
 * reclaimed by the other JVM, and its own JVM learns that it was lost and goes on as a new owner.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OwnerLivenessTest {
  private static final LimiterConfig CAP_1 = LimiterConfig.builder().maxConcurrent(1).build();
  private static final Duration SAFETY = Duration.ofSeconds(60);

  private final TestDatabase db = TestDatabase.create();
  private final HikariDataSource otherJvm = db.dataSource(4);

  @AfterEach
  void drop() throws SQLException {
    otherJvm.close();
    db.close();
  }

  @Test
  void anOwnerWhoseHeartbeatLapsedIsReclaimedAndItsJvmLearnsItWasLost() throws Exception {
    EventRecorder events = new EventRecorder();
    // The lapsing JVM renews only every 20 minutes; the other one looks for dead owners every
    // second, with its own heartbeat.
    Limiter lapsing =
        Limiter.open(
            db.store("p").heartbeatTimeout(Duration.ofHours(1)).build(),
            CAP_1,
            LimiterOptions.builder().listener(events).build());
    Limiter other =
        Limiter.open(
            PostgresStore.builder(otherJvm, "p")
                .schema(db.schema())
                .heartbeatTimeout(Duration.ofSeconds(3))
                .build(),
            CAP_1);
    try {
      Lease held = lapsing.acquire(1);
      String lapsedOwner = other.inspect().leases().get(0).owner();
      CompletableFuture<Long> otherWaits =
          other.schedule(a -> a.fencingToken(), ScheduleOptions.builder().build());
      CompletableFuture<String> lapsingWaits =
          lapsing.schedule(a -> "ran", ScheduleOptions.builder().build());
      lapsing.inspect(); // applied after its request: the request is in the store's queue
      assertThat(other.inspect().waiters()).hasSize(2);

      db.execute(
          "UPDATE \""
              + db.schema()
              + "\".sluice_limiter_owners SET expires_at = clock_timestamp() - interval '1 second'"
              + " WHERE owner_id = '"
              + lapsedOwner
              + "'");

      assertThat(otherWaits.get(SAFETY.toSeconds(), TimeUnit.SECONDS))
          .as("the lapsed owner's unit went to the other JVM")
          .isGreaterThan(held.admission().fencingToken());
      assertThat(failure(lapsingWaits)).isInstanceOf(OwnerLostException.class);
      events.awaitCount(LimiterEvent.Kind.OWNER_LOST, 1, SAFETY);
      held.close();
      try (Lease again = lapsing.acquire(1)) {
        PoolSnapshot s = other.inspect();
        assertThat(s.leases())
            .singleElement()
            .satisfies(l -> assertThat(l.owner()).isNotEqualTo(lapsedOwner));
        assertThat(s.activeWeight()).isEqualTo(1);
      }
      assertThat(other.inspect().leases()).isEmpty();
    } finally {
      lapsing.close();
      other.close();
    }
  }

  private static Throwable failure(CompletableFuture<?> f) throws Exception {
    try {
      f.get(SAFETY.toSeconds(), TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    }
    throw new AssertionError("expected the request to fail, it completed with " + f.join());
  }
}
