/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import dev.sluice.StoreFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Properties;
import org.sqlite.JDBC;

/**
 * Opens the database file of a store in a directory so that a refusal changes nothing and a new
 * file appears whole. An existing file is checked before anything in the directory is created and
 * before any pragma that writes (the journal mode rewrites the file's header); a new file is built
 * under a temporary name and renamed into place, so a file under the store's name that is empty,
 * header-less or without tables was never being created by Sluice: it is damaged, and opening it as
 * a new store would start its counters (fencing tokens) again.
 *
 * <p>Thread-safe (stateless); the connections it returns are not.
 */
public final class StoreFile {
  private static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

  /** What a store writes into a new file and checks in an existing one. */
  public interface Schema {
    /** Writes the tables and meta rows of a new store into an empty database, in a transaction. */
    void create(Connection db) throws SQLException, IOException;

    /** Refuses a file this store cannot use; only reads. */
    void check(Connection db) throws SQLException, IOException;
  }

  private StoreFile() {}

  /**
   * Checks an existing file before anything is created in its directory; no gate is needed, as it
   * only reads. A file that looks unfinished is left to {@link #open} (under the gate) while the
   * directory has a {@code gate.lock}, where an older Sluice may be creating it right now.
   *
   * @param what names the store in messages, such as {@code pool /x}
   * @throws StoreFormatException if the file is damaged or refused by {@code schema}
   * @throws SQLException if SQLite cannot read it, or it is another program's database
   */
  public static void precheck(PoolDirectory dir, String name, String what, Schema schema)
      throws SQLException, IOException {
    Path file = dir.file(name);
    if (!Files.exists(file)) {
      return;
    }
    boolean mayBeCreating = Files.exists(dir.file("gate.lock"));
    if (mayBeCreating && !hasHeader(file)) {
      return;
    }
    checkHeader(file, what);
    Connection db = connect(file);
    try {
      if (checkTables(db, file, what, mayBeCreating)) {
        schema.check(db);
      }
    } finally {
      SqliteFiles.closeQuietly(db);
    }
  }

  /**
   * Opens the file, creating it whole if it is missing, checks it, and only then sets WAL and the
   * {@code synchronous} level. Call under the directory's gate.
   *
   * @param fullSync {@code synchronous=FULL} rather than {@code NORMAL}
   * @throws StoreFormatException if the file is damaged or refused by {@code schema}
   * @throws SQLException if SQLite cannot read it, or it is another program's database
   */
  public static Connection open(
      PoolDirectory dir, String name, String what, boolean fullSync, Schema schema)
      throws SQLException, IOException {
    Path file = dir.file(name);
    if (!Files.exists(file)) {
      create(dir, file, schema);
    }
    checkHeader(file, what);
    Connection db = connect(file);
    try {
      checkTables(db, file, what, false);
      schema.check(db);
      try (Statement st = db.createStatement()) {
        st.execute("PRAGMA journal_mode=WAL");
        st.execute("PRAGMA synchronous=" + (fullSync ? "FULL" : "NORMAL"));
      }
      return db;
    } catch (SQLException | IOException | RuntimeException e) {
      SqliteFiles.closeQuietly(db);
      throw e;
    }
  }

  /**
   * Builds the store in a temporary file, made durable, then renamed to {@code file}: a crash
   * leaves either no file or a whole one under the store's name.
   */
  private static void create(PoolDirectory dir, Path file, Schema schema)
      throws SQLException, IOException {
    Path partial = dir.file(file.getFileName() + ".creating");
    // Under the gate: a partial file is what a creator that crashed left.
    Files.deleteIfExists(partial);
    Files.deleteIfExists(dir.file(partial.getFileName() + "-journal"));
    dir.createFile(partial);
    Connection db = connect(partial);
    try (Statement st = db.createStatement()) {
      st.execute("BEGIN IMMEDIATE");
      schema.create(db);
      st.execute("COMMIT");
    } finally {
      SqliteFiles.closeQuietly(db);
    }
    try (FileChannel ch = FileChannel.open(partial, StandardOpenOption.WRITE)) {
      ch.force(true);
    }
    Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
    try (FileChannel d = FileChannel.open(dir.path(), StandardOpenOption.READ)) {
      d.force(true);
    }
  }

  private static Connection connect(Path file) throws SQLException {
    // The driver directly, not DriverManager: its first use scans every jar on the class path for
    // drivers, which is a tenth of a short-lived command's run.
    return JDBC.createConnection("jdbc:sqlite:" + file, new Properties());
  }

  private static boolean hasHeader(Path file) throws IOException {
    byte[] head = new byte[MAGIC.length];
    try (InputStream in = Files.newInputStream(file)) {
      return in.readNBytes(head, 0, head.length) == head.length && Arrays.equals(head, MAGIC);
    }
  }

  private static void checkHeader(Path file, String what) throws IOException {
    long size = Files.size(file);
    if (size == 0) {
      throw damaged(file, what, "is empty (0 bytes)");
    }
    if (!hasHeader(file)) {
      throw damaged(file, what, "does not start with a SQLite header (" + size + " bytes)");
    }
  }

  /**
   * Whether the database holds the store's {@code sluice_meta} table; another program's tables are
   * refused, no table at all is damage unless {@code mayBeCreating}.
   */
  private static boolean checkTables(Connection db, Path file, String what, boolean mayBeCreating)
      throws SQLException {
    if (SqliteFiles.hasTable(db, "sluice_meta")) {
      return true;
    }
    if (SqliteFiles.hasSchema(db)) {
      throw new SQLException(
          SqliteFiles.NOT_SLUICE + "; it holds tables but no sluice_meta, it was left as is");
    }
    if (mayBeCreating) {
      return false;
    }
    throw damaged(file, what, "holds no tables");
  }

  private static StoreFormatException damaged(Path file, String what, String how) {
    return new StoreFormatException(
        what
            + ": "
            + file
            + " "
            + how
            + ", but it was not being created: Sluice creates it whole, so it is damaged, and"
            + " opening it as a new store would start its counters (fencing tokens) again. Restore"
            + " it from a backup, or, if it never held a store, delete it to create a new one;"
            + " nothing was changed");
  }
}
