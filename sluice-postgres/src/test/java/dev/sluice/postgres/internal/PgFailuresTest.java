/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.BackendFailureException;
import java.io.IOException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class PgFailuresTest {
  @Test
  void aStatementsErrorIsARefusalThatCommittedNothing() {
    SQLException unique = new SQLException("duplicate key", "23505");
    assertThat(PgFailures.kind(unique)).isEqualTo(BackendFailureException.Kind.PERMANENT);
    assertThat(PgFailures.refusedByServer(unique)).isTrue();
  }

  @Test
  void aFailureThatMayHaveLostACommitsAnswerIsNoRefusal() {
    // A lost connection, a server shutting down, a pool's closed handle (no state), no SQL at all.
    assertThat(PgFailures.refusedByServer(new SQLException("I/O error", "08006"))).isFalse();
    assertThat(PgFailures.refusedByServer(new SQLException("terminating", "57P01"))).isFalse();
    assertThat(PgFailures.refusedByServer(new SQLException("Connection is closed"))).isFalse();
    assertThat(PgFailures.refusedByServer(new SQLException("x", "XX000", new IOException("reset"))))
        .isFalse();
    assertThat(PgFailures.refusedByServer(new IllegalStateException("x"))).isFalse();
  }
}
