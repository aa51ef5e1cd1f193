/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.store;

import dev.sluice.BackendFailureException;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateException;
import dev.sluice.gate.GateSettings;
import dev.sluice.gate.internal.GateMachine;
import dev.sluice.gate.internal.GateState;
import dev.sluice.gate.internal.GateSweeper;
import dev.sluice.gate.internal.GateViews;
import dev.sluice.gate.internal.Permits;
import dev.sluice.gate.internal.TokenMint;
import dev.sluice.local.GateLock;
import dev.sluice.local.IoReasons;
import dev.sluice.local.LocalCommit;
import dev.sluice.local.Owner;
import dev.sluice.local.PoolDirectory;
import dev.sluice.local.PulseWatcher;
import dev.sluice.spi.support.ChangeCounter;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;

/**
 * A gate home on disk: runs each operation as one transaction under the home's gate lock, after the
 * time-driven sweep and the liveness checks, persists what changed, and pulses {@code notify/pulse}
 * before the commit so that every waiting process re-reads. Its first transaction also reads the
 * home's configuration file ({@link ConfigFile}) and adopts what changed in it, recorded as edits
 * by hand; from then on the settings are those of the state each transaction reads, so a change
 * made by {@code config set} in another process applies here at once.
 *
 * <p>Thread-safe: transactions of one JVM are serialized by the gate lock. {@link #transact} blocks
 * while another process holds the gate.
 */
public final class GateStore implements AutoCloseable {
  private final PoolDirectory dir;
  private final GateLock gate;
  private final GateDb db;
  private final Clock clock;
  private final TokenMint mint;
  private final ChangeCounter changes = new ChangeCounter();
  private final AutoCloseable pulseWatch;
  private final LivenessCheck liveness;
  private final ConfigFile config;
  private final ConfigMode configMode;
  private final JobTable jobs;
  private final JobSweep jobSweep;
  private final JobLogs logs;

  /** Whether a transaction read the configuration file; guarded by the gate. */
  private boolean configRead;

  private Owner owner;

  private GateStore(
      PoolDirectory dir,
      GateLock gate,
      GateDb db,
      JobTable jobs,
      Clock clock,
      TokenMint mint,
      ConfigMode configMode) {
    this.dir = dir;
    this.config = new ConfigFile(dir);
    this.configMode = configMode;
    this.gate = gate;
    this.db = db;
    this.clock = clock;
    this.mint = mint;
    this.liveness = new LivenessCheck(dir, changes);
    this.jobs = jobs;
    this.jobSweep = new JobSweep(jobs, liveness);
    this.logs = new JobLogs(dir);
    // Armed before the first read, so no pulse after any read of this store is missed.
    this.pulseWatch = PulseWatcher.instance().watch(dir, changes::bump);
  }

  /**
   * Opens the gate stored in {@code home}, creating it with {@code settingsIfNew}.
   *
   * @throws dev.sluice.StoreFormatException if the home is unusable, foreign or corrupt
   */
  public static GateStore open(Path home, GateSettings settingsIfNew, Clock clock) {
    return open(home, settingsIfNew, clock, ConfigMode.ENFORCE);
  }

  /**
   * Opens the gate stored in {@code home}, creating it with {@code settingsIfNew}, with its
   * configuration file read as {@code configMode} says.
   *
   * @throws dev.sluice.StoreFormatException if the home is unusable, foreign or corrupt
   */
  public static GateStore open(
      Path home, GateSettings settingsIfNew, Clock clock, ConfigMode configMode) {
    PoolDirectory dir = PoolDirectory.open(home, "gate home");
    // A refused home is left as it was found: checked before the gate file and subdirectories.
    GateDb.precheck(dir);
    dir.createLayout();
    GateLock gate;
    try {
      gate = GateLock.open(dir);
    } catch (IOException e) {
      throw new dev.sluice.StoreFormatException(
          "gate home "
              + dir
              + ": cannot open gate.lock: "
              + IoReasons.why(e, dir.file("gate.lock")),
          e);
    }
    GateDb db;
    JobTable jobs;
    try (GateLock.Hold h = gate.hold()) {
      db = GateDb.open(dir, settingsIfNew, false);
      jobs = openJobs(dir, db);
    } catch (RuntimeException e) {
      closeQuietly(gate);
      throw e;
    }
    return new GateStore(dir, gate, db, jobs, clock, TokenMint.secure(), configMode);
  }

  private static JobTable openJobs(PoolDirectory dir, GateDb db) {
    try {
      return JobTable.open(db.connection(), new JobLogs(dir));
    } catch (java.sql.SQLException e) {
      db.close();
      throw new dev.sluice.StoreFormatException(
          "gate home " + dir + ": cannot prepare the table of submitted jobs: " + e.getMessage(),
          e);
    }
  }

  /** The home's configuration file. */
  public ConfigFile configFile() {
    return config;
  }

  /** The settings fixed when the home was created, which the configuration file overrides. */
  public GateSettings settings() {
    return db.settings();
  }

  /** The home's real path. */
  public Path home() {
    return dir.path();
  }

  /** Wake-ups: pulses of this home and deaths of owners it watches. */
  public ChangeCounter changes() {
    return changes;
  }

  /** The transitions and views over one transaction's state, and the submitted jobs' records. */
  public record Tx(
      GateState state,
      GateMachine machine,
      Permits permits,
      GateViews views,
      long now,
      String ownerId,
      JobTable jobs) {}

  /** An operation run inside a transaction. */
  @FunctionalInterface
  public interface Operation<T> {
    T apply(Tx tx) throws SQLException, IOException;
  }

  /**
   * Runs {@code op} in one transaction. What the sweep and the liveness checks changed is kept even
   * if {@code op} is refused with a {@link GateException}, which is then rethrown.
   *
   * @throws BackendFailureException if the database fails
   */
  public <T> T transact(Operation<T> op) {
    return transact(op, false);
  }

  /**
   * Like {@link #transact}, committed durably (the write-ahead log is synced before it returns),
   * for changes that must survive a power loss: those of the configuration.
   */
  public <T> T transactDurably(Operation<T> op) {
    return transact(op, true);
  }

  private <T> T transact(Operation<T> op, boolean durably) {
    try (GateLock.Hold h = gate.hold()) {
      Attempt<T> attempt = new Attempt<>(op);
      try {
        db.fullSync(durably);
        try {
          db.commits().run(h, attempt::run);
        } finally {
          db.fullSync(false);
        }
      } catch (SQLException e) {
        db.forget();
        if (GateDb.damage(e)) {
          throw GateDb.damaged(dir, "gate.db is damaged (" + e.getMessage() + ")", e);
        }
        throw new BackendFailureException(
            "gate home " + dir + ": transaction failed: " + e.getMessage(), e);
      } catch (IOException e) {
        db.forget();
        throw new BackendFailureException(
            "gate home " + dir + ": transaction failed: " + e.getMessage(), e);
      } catch (RuntimeException | Error e) {
        db.forget();
        throw e;
      }
      configRead = true;
      attempt.state.clearEvents();
      attempt.removeAfterCommit.forEach(logs::delete);
      if (attempt.refused != null) {
        throw attempt.refused;
      }
      return attempt.result;
    }
  }

  /**
   * One operation inside the transaction: the sweep, the liveness checks, the operation, writes.
   */
  private final class Attempt<T> {
    private final Operation<T> op;
    private GateState state;
    private T result;
    private GateException refused;
    private final List<Path> removeAfterCommit = new java.util.ArrayList<>();

    Attempt(Operation<T> op) {
      this.op = op;
    }

    LocalCommit.Written run() throws SQLException, IOException {
      GateState s = db.load();
      state = s;
      String before = db.loadedText();
      long now = clock.millis();
      if (!configRead) {
        configMode.adopt(config, s, now);
      }
      new GateSweeper(s).tick(now);
      Permits permits = new Permits(s, mint);
      liveness.reclaim(s, permits, now);
      GateViews views = new GateViews(s, mint);
      // Before the operation, so that it reads jobs as the sweep and the reclaim left them...
      boolean jobsChanged = jobSweep.run(s, views, now, removeAfterCommit);
      try {
        result =
            op.apply(
                new Tx(s, new GateMachine(s, mint), permits, views, now, ownerIdIfAny(), jobs));
      } catch (GateException e) {
        refused = e;
      }
      // ...and after it, so that a job whose request it started or ended is in step at once.
      jobsChanged |= jobSweep.run(s, views, now, removeAfterCommit);
      List<GateEvent> fresh = s.eventsSince(0);
      String after = dev.sluice.gate.internal.GateCodec.write(s);
      if (after.equals(before) && fresh.isEmpty()) {
        // A job record that changed alone still wakes whoever waits for it.
        return jobsChanged
            ? LocalCommit.Written.pulsing(Long.toString(db.version()))
            : LocalCommit.Written.NOTHING;
      }
      db.write(s, after, fresh, now);
      return LocalCommit.Written.pulsing(Long.toString(db.version()));
    }
  }

  /**
   * Wakes {@link #changes()} when any of these owners dies; a waiter calls it with the owners whose
   * death could let it proceed. Each owner is watched once per store.
   */
  public void watchOwners(java.util.Set<String> owners) {
    liveness.watch(owners);
  }

  /** Events after {@code since}; only inside {@link #transact}, which holds the gate. */
  public List<GateEvent> eventsInTx(long since, int limit) throws SQLException {
    return db.events(since, limit);
  }

  /** The kept events of one request, oldest first, read after a sweep. */
  public List<GateEvent> events(String requestId) {
    return transact(tx -> db.events(requestId));
  }

  /** Events after {@code since}, read after a sweep. */
  public List<GateEvent> events(long since, int limit) {
    return transact(tx -> db.events(since, limit));
  }

  /**
   * This process's owner registration, created on first use: requests and launched processes that
   * depend on this process are tied to it, so its death is proven by its free lock.
   */
  public synchronized String ownerId() {
    if (owner == null) {
      try {
        owner = Owner.create(dir);
      } catch (IOException e) {
        throw new BackendFailureException(
            "gate home " + dir + ": cannot register this process: " + e.getMessage(), e);
      }
    }
    return owner.id();
  }

  private synchronized String ownerIdIfAny() {
    return owner == null ? "" : owner.id();
  }

  /** Retires this process's registration and closes the database. */
  @Override
  public void close() {
    closeQuietly(pulseWatch);
    liveness.close();
    synchronized (this) {
      if (owner != null) {
        owner.close();
      }
    }
    try (GateLock.Hold h = gate.hold()) {
      db.close();
    }
    closeQuietly(gate);
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // Closing is best effort; the process exit releases everything.
    }
  }
}
