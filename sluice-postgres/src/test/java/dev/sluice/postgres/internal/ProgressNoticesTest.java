/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.postgres.TestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
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
class ProgressNoticesTest {
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
    ProgressNotices notices =
        new ProgressNotices(db.dataSource(), channel, "w1 me p", "test", 3_600_000);
    for (int i = 0; i < 100; i++) {
      notices.committed();
    }
    assertThat(notices.owed()).isTrue();

    notices.close();

    // Close waited for its notice; a marker sent now is told after everything it sent.
    assertThat(untilMarker()).containsExactly("w1 me p", "marker");
    assertThat(notices.owed()).isFalse();
  }

  @Test
  void aCommitIsToldAfterTheCoalescingTimeAndTheNextOneOwesANoticeOfItsOwn() throws Exception {
    try (ProgressNotices notices =
        new ProgressNotices(
            db.dataSource(), channel, "w1 me p", "test", ProgressNotices.COALESCE_MILLIS)) {
      notices.committed();
      assertThat(heard(SAFETY_MILLIS)).containsExactly("w1 me p");

      notices.committed();
      assertThat(heard(SAFETY_MILLIS)).containsExactly("w1 me p");
    }
  }

  @Test
  void nothingIsSentWhenNothingIsOwed() throws Exception {
    new ProgressNotices(db.dataSource(), channel, "w1 me p", "test", 1).close();

    assertThat(untilMarker()).containsExactly("marker");
  }
}
