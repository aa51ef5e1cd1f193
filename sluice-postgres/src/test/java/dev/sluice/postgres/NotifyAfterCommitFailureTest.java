/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.BackendFailureException;
import dev.sluice.workflow.spi.Change;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A batch's NOTIFY fails after the batch's data committed, on the real server: the writer's
 * connections see a {@code pg_notify} of a schema of the test's, first in their search path, which
 * refuses the first workflow notice as a full notification queue would (SQLSTATE 54000) and passes
 * the others on. The submit is reported failed, its row is committed all the same, and another
 * JVM's view of the store is still told of the work, by the notice sent later.
 */
class NotifyAfterCommitFailureTest {
  private static final long SAFETY_MILLIS = 30_000;

  private final TestDatabase db = TestDatabase.create(8);
  private final String shadow = "sluice_shadow_" + UUID.randomUUID().toString().substring(0, 8);
  private final LinkedBlockingQueue<Set<Change>> told = new LinkedBlockingQueue<>();
  private WorkflowSession observer;
  private HikariDataSource shadowed;
  private WorkflowSession writer;

  @AfterEach
  void close() throws Exception {
    if (writer != null) {
      writer.close();
    }
    if (shadowed != null) {
      shadowed.close();
    }
    observer.close();
    db.execute("DROP SCHEMA IF EXISTS " + shadow + " CASCADE");
    db.close();
  }

  private void shadowNotify() throws Exception {
    db.execute("CREATE SCHEMA " + shadow);
    db.execute("CREATE SEQUENCE " + shadow + ".notices");
    // A workflow notice has spaces in its payload; the listener's own wake has none.
    db.execute(
        "CREATE FUNCTION "
            + shadow
            + ".pg_notify(channel text, payload text) RETURNS void LANGUAGE plpgsql AS $$"
            + " BEGIN"
            + "   IF position(' ' IN payload) > 0 AND nextval('"
            + shadow
            + ".notices') = 1 THEN"
            + "     RAISE EXCEPTION 'too many notifications in the NOTIFY queue'"
            + "       USING ERRCODE = '54000';"
            + "   END IF;"
            + "   PERFORM pg_catalog.pg_notify(channel, payload);"
            + " END $$");
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(TestDatabase.URL);
    config.setMaximumPoolSize(6);
    config.setMinimumIdle(0);
    config.setConnectionInitSql("SET search_path = " + shadow + ", pg_catalog, public");
    shadowed = new HikariDataSource(config);
  }

  @Test
  void aWorkNoticeThatFailsAfterItsCommitIsToldLater() throws Exception {
    observer = db.workflows().build().open();
    observer.onChange(told::add);
    shadowNotify();
    writer = PostgresWorkflowStore.builder(shadowed).schema(db.schema()).build().open();

    assertThatThrownBy(
            () ->
                writer.transact(
                    tx -> {
                      tx.putExecution(ExecutionRecord.queued("lost-1", "w", 1, "\"x\"", tx.now()));
                      return null;
                    }))
        .isInstanceOf(BackendFailureException.class);

    assertThat(observer.readExecution("lost-1"))
        .as("committed before the NOTIFY failed")
        .isPresent();
    // The notice sent later names the work alone; an owner's drop would name every change.
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SAFETY_MILLIS);
    while (true) {
      Set<Change> next = told.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      assertThat(next).as("the work is told within the safety timeout").isNotNull();
      if (next.equals(Set.of(Change.WORK))) {
        return;
      }
    }
  }
}
