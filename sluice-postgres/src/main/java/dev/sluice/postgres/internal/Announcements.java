/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.workflow.jdbc.HeldWrite;
import dev.sluice.workflow.spi.Change;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Set;

/**
 * How a workflow store's batches are committed and told to other JVMs: a commit that may give work
 * or reached an outcome with a NOTIFY that follows it in the same round trip, one of progress only
 * by a coalesced notice ({@link DeferredNotices}). Thread-safe; a commit blocks on its round trip.
 */
final class Announcements implements AutoCloseable {
  /**
   * What follows a unit's statements when the commit is to be announced: its COMMIT, then the
   * NOTIFY in a transaction of its own whose commit waits for no WAL flush. The server takes one
   * lock for every notifying commit and holds it to the end of that commit, flush included, so a
   * NOTIFY inside the data's transaction makes every notifying commit of the server flush alone,
   * one after the other, where commits without one share their flushes. Sent in the same call, the
   * NOTIFY still reaches listeners only once the data is committed, and a notification is not
   * durable either way: a listener that reconnects reads everything again.
   */
  private static final String COMMIT_THEN_NOTIFY =
      "COMMIT; BEGIN; SELECT set_config('synchronous_commit', 'off', true), pg_notify(?, ?); COMMIT";

  private final String channel;
  private final String token;
  private final DeferredNotices deferred;

  /**
   * @param settings the store
   * @param channel the store's channel
   * @param token this JVM's view of the store, which its own listener passes over
   */
  Announcements(PgWorkflowSettings settings, String channel, String token) {
    this.channel = channel;
    this.token = token;
    this.deferred =
        new DeferredNotices(
            settings.dataSource(),
            channel,
            token,
            settings.describe(),
            DeferredNotices.COALESCE_MILLIS);
  }

  /**
   * Sends {@code last} (a unit's last write, or null) and commits the caller's transaction, which
   * made {@code changes}, in one round trip, and tells other JVMs: a commit that may give work or
   * reached an outcome with a NOTIFY after its COMMIT in the same round trip ({@link
   * #COMMIT_THEN_NOTIFY}), one of progress only by a coalesced notice ({@link DeferredNotices}). A
   * server error of {@code last} means nothing was committed; one of the notification may follow
   * the commit (see {@link #provesNothingCommitted}).
   */
  void commit(Connection c, Set<Change> changes, HeldWrite last) throws SQLException {
    boolean announceNow = changes.contains(Change.WORK) || changes.contains(Change.OUTCOME);
    if (last == null && !announceNow) {
      c.commit();
    } else {
      String end = announceNow ? COMMIT_THEN_NOTIFY : "COMMIT";
      try (PreparedStatement st =
          c.prepareStatement(last == null ? end : last.sql() + "; " + end)) {
        int at = last == null ? 0 : last.bind(st, 0);
        if (announceNow) {
          st.setString(at + 1, channel);
          st.setString(at + 2, new WorkflowNotice(token, changes).text());
        }
        st.execute();
      }
    }
    if (!announceNow) {
      deferred.owe(changes);
    }
  }

  /**
   * Whether a server error of a batch sent with its commit proves that nothing was committed: only
   * an error that a data statement raises and the notification's transaction, which follows the
   * commit, cannot: an integrity violation (class 23), a malformed value (class 22 but 22023, which
   * {@code pg_notify} raises), an undefined or refused object (class 42), a raised exception (P0).
   * Any other error may follow the commit, and the batch counts as possibly committed, which costs
   * its owner a renewal and loses nothing.
   */
  static boolean provesNothingCommitted(SQLException e) {
    String state = e.getSQLState();
    return state != null
        && (state.startsWith("23")
            || (state.startsWith("22") && !state.equals("22023"))
            || state.startsWith("42")
            || state.startsWith("P0"));
  }

  /**
   * A batch that made {@code changes} may have committed although its answer was lost: they are
   * told to other JVMs later, by a notice that is retried until it goes out.
   */
  void maybeCommitted(Set<Change> changes) {
    deferred.owe(changes);
  }

  /** Sends a notice still owed, then stops its thread. */
  @Override
  public void close() {
    deferred.close();
  }
}
