/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.postgres.PostgresWorkflowStore;
import dev.sluice.workflow.spi.WorkflowStore;
import dev.sluice.workflow.sqlite.SqliteWorkflowStore;
import java.nio.file.Files;
import java.nio.file.Path;
import org.postgresql.ds.PGSimpleDataSource;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The workflow store {@code sluice serve} shows: {@code --workflow-db} (a SQLite store's directory,
 * or its {@value #FILE} file) or {@code --workflow-pg} (a PostgreSQL URL, with the schema and table
 * prefix of {@code --workflow-pg-schema} and {@code --workflow-pg-table-prefix}), checked before
 * anything is opened. Stateless.
 */
final class WorkflowStores {
  /** The file a SQLite workflow store keeps in its directory. */
  static final String FILE = "workflows.db";

  private WorkflowStores() {}

  /**
   * The {@code --workflow-pg} options.
   *
   * @param url the server, or null if not given
   * @param schema the schema of the store's tables
   * @param tablePrefix the prefix of their names
   */
  record Pg(String url, String schema, String tablePrefix) {}

  /** The store named by the options, or null if neither is given. */
  static WorkflowStore of(CommandLine cmd, Path db, Pg pg) {
    String pgUrl = pg.url();
    if (db != null && pgUrl != null) {
      throw new ParameterException(cmd, "give --workflow-db or --workflow-pg, not both");
    }
    if (db != null) {
      Path dir =
          db.getFileName() != null && db.getFileName().toString().equals(FILE)
              ? db.getParent()
              : db;
      if (dir == null || !Files.isDirectory(dir)) {
        throw new ParameterException(
            cmd,
            "--workflow-db must name a SQLite workflow store's directory (or its "
                + FILE
                + "), was '"
                + db
                + "': no such directory");
      }
      return SqliteWorkflowStore.directory(dir);
    }
    if (pgUrl != null) {
      if (!pgUrl.startsWith("jdbc:postgresql:")) {
        throw new ParameterException(
            cmd, "--workflow-pg must be a jdbc:postgresql: URL, was '" + pgUrl + "'");
      }
      PGSimpleDataSource ds = new PGSimpleDataSource();
      ds.setURL(pgUrl);
      try {
        return PostgresWorkflowStore.builder(ds)
            .schema(pg.schema())
            .tablePrefix(pg.tablePrefix())
            .build();
      } catch (IllegalArgumentException e) {
        throw new ParameterException(cmd, e.getMessage());
      }
    }
    return null;
  }
}
