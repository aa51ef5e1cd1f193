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
  void errorsTheNotificationCanRaiseMayFollowTheCommit() {
    assertThat(Announcements.mayFollowCommit(new SQLException("too many notifications", "54000")))
        .isTrue();
    assertThat(Announcements.mayFollowCommit(new SQLException("payload too long", "22023")))
        .isTrue();
    assertThat(Announcements.mayFollowCommit(new SQLException("no transaction", "25P01"))).isTrue();
    assertThat(Announcements.mayFollowCommit(new SQLException("no state"))).isTrue();
  }

  @Test
  void errorsOfADataStatementDoNot() {
    assertThat(Announcements.mayFollowCommit(new SQLException("duplicate key", "23505"))).isFalse();
    assertThat(Announcements.mayFollowCommit(new SQLException("no such table", "42P01"))).isFalse();
    assertThat(Announcements.mayFollowCommit(new SQLException("bad row", "22P02"))).isFalse();
  }
}
