/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.postgres.TestDatabase;
import dev.sluice.workflow.spi.Change;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Progress-only commits announced on the real server: one NOTIFY for every commit made while one is
 * owed, sent on the notices' own connection after the coalescing time or at close, heard by a plain
 * LISTEN connection as another JVM's listener would hear it.
 */
class DeferredNoticesTest {
  private static final int SAFETY_MILLIS = 30_000;

  private final TestDatabase db = TestDatabase.create(2);
  private final String channel =
      "sluice_test_progress_" + UUID.randomUUID().toString().substring(0, 8);
  private Connection listening;

  @BeforeEach
  void listen() throws Exception {
    listening = db.connect();
    try (Statement st = listening.createStatement()) {
      st.execute("LISTEN " + channel);
    }
  }

  @AfterEach
  void close() throws Exception {
    listening.close();
    db.close();
  }

  /** The payloads of the notifications that arrive within {@code millis}, at least one. */
  private List<String> heard(int millis) throws Exception {
    List<String> payloads = new ArrayList<>();
    PGNotification[] got = listening.unwrap(PGConnection.class).getNotifications(millis);
    assertThat(got).as("a notification within the safety timeout").isNotNull().isNotEmpty();
    for (PGNotification n : got) {
      assertThat(n.getName()).isEqualTo(channel);
      payloads.add(n.getParameter());
    }
    return payloads;
  }

  /**
   * Sends a marker NOTIFY from another connection and returns every payload heard up to it: the
   * server delivers notifications in commit order, so what was sent before is among them.
   */
  private List<String> untilMarker() throws Exception {
    try (Connection c = db.connect();
        Statement st = c.createStatement()) {
      st.execute("SELECT pg_notify('" + channel + "', 'marker')");
    }
    List<String> payloads = new ArrayList<>();
    while (!payloads.contains("marker")) {
      payloads.addAll(heard(SAFETY_MILLIS));
    }
    return payloads;
  }

  @Test
  void manyCommitsWhileANoticeIsOwedAreToldByOneNoticeSentAtClose() throws Exception {
    DeferredNotices notices =
        new DeferredNotices(db.dataSource(), channel, "me", "test", 3_600_000);
    for (int i = 0; i < 100; i++) {
      notices.owe(Set.of(Change.PROGRESS));
    }
    notices.owe(Set.of(Change.OUTCOME));
    assertThat(notices.owed()).containsExactlyInAnyOrder(Change.PROGRESS, Change.OUTCOME);

    notices.close();

    List<String> payloads = heard(SAFETY_MILLIS);
    assertThat(payloads).hasSize(1);
    assertThat(WorkflowNotice.parse(payloads.get(0)))
        .isEqualTo(new WorkflowNotice("me", Set.of(Change.PROGRESS, Change.OUTCOME)));
    // Nothing else was sent: a marker sent now is the next notification.
    assertThat(untilMarker()).containsExactly("marker");
    assertThat(notices.owed()).isEmpty();
  }

  @Test
  void aChangeIsToldAfterTheCoalescingTimeAndTheNextOneOwesANoticeOfItsOwn() throws Exception {
    try (DeferredNotices notices =
        new DeferredNotices(
            db.dataSource(), channel, "me", "test", DeferredNotices.COALESCE_MILLIS)) {
      notices.owe(Set.of(Change.PROGRESS));
      assertThat(heard(SAFETY_MILLIS))
          .containsExactly(new WorkflowNotice("me", Set.of(Change.PROGRESS)).text());

      notices.owe(Set.of(Change.WORK));
      assertThat(heard(SAFETY_MILLIS))
          .containsExactly(new WorkflowNotice("me", Set.of(Change.WORK)).text());
    }
  }

  @Test
  void nothingIsSentWhenNothingIsOwed() throws Exception {
    new DeferredNotices(db.dataSource(), channel, "me", "test", 1).close();

    assertThat(untilMarker()).containsExactly("marker");
  }
}
