/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import dev.sluice.TimeSource;
import dev.sluice.local.PoolDirectory;
import dev.sluice.workflow.spi.WorkflowSession;
import dev.sluice.workflow.spi.WorkflowStore;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A workflow store in a directory of this machine: executions, their steps and their timers in one
 * SQLite file, {@code workflows.db}, shared by every runtime of every process that opens the
 * directory. No daemon and no polling: each unit of work runs under an exclusive lock on the
 * directory's {@code gate.lock}, a writer pulses {@code notify/pulse} before it commits, and
 * runtimes sleep until a pulse, a claim holder's death or their next timer.
 *
 * <p><b>Layout and permissions</b> are those of a limiter pool directory: created with mode 0700
 * (files 0600); a directory shared by a dedicated group (2770, files 0660) is accepted when this
 * process is in that group; a symlink or anything else writable by others is refused.
 *
 * <p><b>Claims.</b> Each runtime registers an owner (a lock file held for its lifetime and a socket
 * in {@code owners/}); a claim of a dead runtime is taken over only once its free lock proves the
 * death, never because a heartbeat is late.
 *
 * <p><b>Durability.</b> WAL with {@code synchronous=FULL} by default: a committed step survives a
 * power loss. {@link #withNormalSync()} trades the last commits before a power loss (never
 * corruption) for fewer fsyncs.
 *
 * <p><b>Format.</b> The file records a format id and a schema version. A newer library migrates an
 * older schema forward in one transaction after copying the file to {@code
 * workflows.db.schema-N.bak}; a file of a newer schema or another format is refused with {@link
 * dev.sluice.StoreFormatException} and left as it is.
 *
 * <p>Immutable and thread-safe. {@link #open()} creates the directory if needed and may block on
 * the gate while another process holds it.
 */
public final class SqliteWorkflowStore implements WorkflowStore {
  private final Path requested;
  private final TimeSource clock;
  private final boolean fullSync;
  private volatile PoolDirectory checked;

  private SqliteWorkflowStore(Path requested, TimeSource clock, boolean fullSync) {
    this.requested = requested;
    this.clock = clock;
    this.fullSync = fullSync;
  }

  /**
   * The store in {@code directory}, created on first use.
   *
   * @param directory the store directory
   * @return the store
   */
  public static SqliteWorkflowStore directory(Path directory) {
    Objects.requireNonNull(directory, "directory");
    return new SqliteWorkflowStore(directory, TimeSource.system(), true);
  }

  /**
   * Returns a store that keeps time with {@code clock}. Every process on a store must share one
   * time; other clocks are for tests within one JVM.
   *
   * @param clock the clock
   * @return the store
   */
  public SqliteWorkflowStore withClock(TimeSource clock) {
    return new SqliteWorkflowStore(requested, Objects.requireNonNull(clock, "clock"), fullSync);
  }

  /**
   * Returns a store that commits with {@code synchronous=NORMAL}: an fsync per checkpoint rather
   * than per commit; a power loss may undo the last commits (steps then run again), never corrupt
   * the store.
   *
   * @return the store
   */
  public SqliteWorkflowStore withNormalSync() {
    return new SqliteWorkflowStore(requested, clock, false);
  }

  private PoolDirectory dir() {
    PoolDirectory d = checked;
    if (d == null) {
      d = PoolDirectory.open(requested);
      checked = d;
    }
    return d;
  }

  @Override
  public String name() {
    return dir().path().toString();
  }

  @Override
  public TimeSource clock() {
    return clock;
  }

  @Override
  public WorkflowSession open() {
    return SqliteWorkflowSession.open(dir(), clock, fullSync);
  }

  @Override
  public String toString() {
    return "SqliteWorkflowStore[" + requested + "]";
  }
}
