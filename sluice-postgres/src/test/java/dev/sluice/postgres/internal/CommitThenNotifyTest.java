/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * A batch's NOTIFY goes in a transaction of its own after the data's COMMIT: a server error that
 * the notification's transaction can raise does not prove that nothing was committed, so the
 * batch's owner counts the commit as possibly made; an error only a data statement raises does.
 */
class CommitThenNotifyTest {
  @Test
  void onlyErrorsOfDataStatementsProveThatNothingWasCommitted() {
    assertThat(Announcements.provesNothingCommitted(new SQLException("duplicate key", "23505")))
        .isTrue();
    assertThat(Announcements.provesNothingCommitted(new SQLException("no such table", "42P01")))
        .isTrue();
    assertThat(Announcements.provesNothingCommitted(new SQLException("bad value", "22P02")))
        .isTrue();
    assertThat(Announcements.provesNothingCommitted(new SQLException("raised", "P0001"))).isTrue();
  }

  @Test
  void errorsTheNotificationsTransactionCanRaiseDoNot() {
    assertThat(
            Announcements.provesNothingCommitted(
                new SQLException("too many notifications", "54000")))
        .isFalse();
    assertThat(Announcements.provesNothingCommitted(new SQLException("payload too long", "22023")))
        .isFalse();
    assertThat(Announcements.provesNothingCommitted(new SQLException("no transaction", "25P01")))
        .isFalse();
    assertThat(Announcements.provesNothingCommitted(new SQLException("could not open", "58P01")))
        .isFalse();
    assertThat(Announcements.provesNothingCommitted(new SQLException("internal", "XX000")))
        .isFalse();
    assertThat(Announcements.provesNothingCommitted(new SQLException("no state"))).isFalse();
  }
}
