/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;

/**
 * The one commit protocol of every store in a directory (limiter pool, gate home, workflow store):
 * under the directory's gate, begin an immediate transaction, write, write the pulse, commit.
 *
 * <p>The pulse is written under the gate and before the commit, so a process woken by it takes the
 * gate next and so reads this commit, while a process that read before it had armed its watch
 * earlier and wakes. A failure anywhere rolls the transaction back, and the pulse it may have
 * written wakes readers who then find nothing new, which costs a read and loses nothing. The test
 * stages of {@link CrashStages} mark the points a crash can fall between.
 *
 * <p>One per connection. Not thread-safe: used under the gate by the thread that holds it.
 */
public final class LocalCommit {
  /**
   * What a transaction's writes did.
   *
   * @param wrote whether anything was written
   * @param pulse the token to pulse before the commit, or {@code null} for none: no process outside
   *     this JVM has anything to learn from it
   * @param files the pulse files to write it to ({@link Pulse#FILE} unless the writer names
   *     others), none without a pulse
   */
  public record Written(boolean wrote, String pulse, List<String> files) {
    /** Nothing was written: the transaction commits without stages and without a pulse. */
    public static final Written NOTHING = new Written(false, null);

    /** Written, and no other process has anything to learn from it. */
    public static final Written QUIETLY = new Written(true, null);

    /** Checks that only a write pulses, and a pulse goes to some file. */
    public Written {
      files = List.copyOf(files);
      if (!wrote && pulse != null) {
        throw new IllegalArgumentException("a transaction that wrote nothing has no pulse");
      }
      if ((pulse == null) != files.isEmpty()) {
        throw new IllegalArgumentException("a pulse goes to at least one file, and only a pulse");
      }
    }

    /**
     * What a transaction's writes did, pulsing {@link Pulse#FILE} if they pulse.
     *
     * @param wrote whether anything was written
     * @param pulse the token to pulse before the commit, or {@code null} for none
     */
    public Written(boolean wrote, String pulse) {
      this(wrote, pulse, pulse == null ? List.of() : List.of(Pulse.FILE));
    }

    /**
     * Written, and every watcher of the directory must look: {@code token} names the commit.
     *
     * @param token the pulse's text
     * @return the outcome
     */
    public static Written pulsing(String token) {
      return new Written(true, Objects.requireNonNull(token, "token"));
    }

    /**
     * Written, and every watcher of the directory must look, told which kinds of change by the
     * files pulsed ({@link PulseWatcher#watchFiles}).
     *
     * @param token the pulse's text
     * @param files the pulse files, at least one
     * @return the outcome
     */
    public static Written pulsing(String token, List<String> files) {
      return new Written(true, Objects.requireNonNull(token, "token"), files);
    }
  }

  /** The writes of one transaction, run inside it. */
  @FunctionalInterface
  public interface Writes {
    /**
     * Writes; it may read and write any table of the connection.
     *
     * @return what it wrote
     * @throws SQLException if the database fails; the transaction is rolled back
     * @throws IOException if a file fails; the transaction is rolled back
     */
    Written write() throws SQLException, IOException;
  }

  private final PoolDirectory dir;
  private final PreparedStatement begin;
  private final PreparedStatement commit;
  private final PreparedStatement rollback;

  /**
   * Prepares the transaction statements of {@code db} once: a statement compiled per transaction
   * costs a parse under the gate.
   *
   * @param dir the directory whose pulse the commits write
   * @param db the store's connection
   * @throws SQLException if the statements cannot be prepared
   */
  public LocalCommit(PoolDirectory dir, Connection db) throws SQLException {
    this.dir = Objects.requireNonNull(dir, "dir");
    this.begin = db.prepareStatement("BEGIN IMMEDIATE");
    this.commit = db.prepareStatement("COMMIT");
    this.rollback = db.prepareStatement("ROLLBACK");
  }

  /**
   * Runs {@code writes} in one transaction and commits it, pulsing before the commit if they ask.
   *
   * @param hold the caller's hold of the directory's gate, which it keeps until after this returns
   * @param writes what to write
   * @return what the writes did
   * @throws SQLException if the database failed; nothing was committed
   * @throws IOException if the pulse or a write to a file failed; nothing was committed
   */
  public Written run(GateLock.Hold hold, Writes writes) throws SQLException, IOException {
    Objects.requireNonNull(hold, "hold");
    begin.execute();
    Written written;
    try {
      written = writes.write();
      if (written.wrote()) {
        CrashStages.reach(CrashStages.BEFORE_PULSE);
        for (String file : written.files()) {
          Pulse.write(dir, file, written.pulse());
        }
        CrashStages.reach(CrashStages.AFTER_PULSE);
      }
      commit.execute();
    } catch (SQLException | IOException | RuntimeException | Error e) {
      try {
        rollback.execute();
      } catch (SQLException suppressed) {
        // Broken connection or no transaction left to undo: the original error says why.
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    if (written.wrote()) {
      CrashStages.reach(CrashStages.AFTER_COMMIT);
    }
    return written;
  }
}
