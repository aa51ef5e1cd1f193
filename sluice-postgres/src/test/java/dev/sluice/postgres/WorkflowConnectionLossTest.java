/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.BackendFailureException;
import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The server ends every connection of the workflow store ({@code pg_terminate_backend}: the
 * session's and the dedicated one): the unit caught by it fails with a transient {@link
 * BackendFailureException}, nothing committed is lost, and the store goes on by itself, the same
 * session and runtime working again without a reopen.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WorkflowConnectionLossTest {
  private static final Workflow<String, String> ECHO =
      Workflow.define("echo", String.class, String.class, (ctx, s) -> s + "!");

  private final TestDatabase db = TestDatabase.create();

  @AfterEach
  void drop() throws SQLException {
    db.close();
  }

  @Test
  void aUnitCaughtByAKillFailsTransientlyAndTheSameSessionWorksAgain() throws Exception {
    try (WorkflowRuntime runtime =
            WorkflowRuntime.builder().store(db.workflows().build()).register(ECHO).build();
        WorkflowSession session = db.workflows().build().open()) {
      runtime.start();
      assertThat(runtime.submit(ECHO, "before", "a").result(Duration.ofSeconds(30)))
          .isEqualTo("a!");
      // The server ends the connections while a unit of the session holds one: a connection that
      // sat idle in the pool could be checked and replaced before a unit got it.
      AtomicInteger ended = new AtomicInteger();
      assertThatThrownBy(
              () ->
                  session.transact(
                      tx -> {
                        ended.set(terminateStoreConnections());
                        return tx.execution("before");
                      }))
          .isInstanceOf(BackendFailureException.class)
          .satisfies(
              e ->
                  assertThat(((BackendFailureException) e).kind())
                      .isEqualTo(BackendFailureException.Kind.TRANSIENT));
      assertThat(ended.get()).as("connections the server ended").isPositive();
      Optional<ExecutionRecord> kept =
          afterTransientFailures(() -> session.transact(tx -> tx.execution("before")));
      assertThat(kept).as("the committed execution, read again").isPresent();
      assertThat(kept.get().status()).isEqualTo(ExecutionStatus.COMPLETED);

      // The runtime's own session lost its connections too: its first unit on each may fail the
      // same way (submit is idempotent per id, so a caller submits again; a result is read again).
      Execution<String> after = afterTransientFailures(() -> runtime.submit(ECHO, "after", "b"));
      assertThat(afterTransientFailures(() -> after.result(Duration.ofSeconds(60))))
          .as("the runtime works again without a reopen")
          .isEqualTo("b!");
    }
  }

  /**
   * Runs {@code call} until it succeeds: the pool may still hand out other connections the server
   * ended, and each fails one unit, transiently, before it is dropped. Never waits.
   */
  private static <T> T afterTransientFailures(Supplier<T> call) {
    BackendFailureException last = null;
    for (int attempt = 0; attempt < 32; attempt++) {
      try {
        return call.get();
      } catch (BackendFailureException e) {
        assertThat(e.kind()).isEqualTo(BackendFailureException.Kind.TRANSIENT);
        last = e;
      }
    }
    throw new AssertionError("still failing after 32 attempts", last);
  }

  /** Ends every backend of the store's data source, the dedicated connection included. */
  private int terminateStoreConnections() {
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
    } catch (SQLException e) {
      throw new IllegalStateException("could not end the store's connections", e);
    }
  }
}
