/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import dev.sluice.BackendFailureException;
import dev.sluice.LimiterConfig;
import dev.sluice.SluiceException;
import dev.sluice.StoreFormatException;
import dev.sluice.TimeSource;
import dev.sluice.local.GateLock;
import dev.sluice.local.PoolDirectory;
import dev.sluice.local.Pulse;
import dev.sluice.local.PulseWatcher;
import dev.sluice.local.Wakeups;
import dev.sluice.spi.PoolAlgorithm;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolContext;
import dev.sluice.spi.PoolOutcome;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.support.GroupCommitter;
import dev.sluice.spi.support.PendingOutcome;
import dev.sluice.spi.support.StoredPoolState;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One pool directory as seen by this JVM: the gate, the database, a cached copy of the state, and
 * the coordinator thread that runs every transaction of every owner of this JVM. Pending commands
 * are applied in one batch under one gate hold, one commit and one pulse (group commit), in the
 * order they were submitted.
 *
 * <p>Thread-safe. Callers never block on the gate: they queue work for the coordinator.
 */
final class SqlitePool {
  private static final Map<Path, SqlitePool> OPEN = new HashMap<>();
  private static final int MAX_BATCH = 256;
  private static final String JVM_TOKEN =
      Long.toHexString(ProcessHandle.current().pid())
          + "-"
          + Long.toHexString(System.nanoTime() ^ System.identityHashCode(OPEN));

  private final PoolDirectory dir;
  private final LimiterConfig config;
  private final GateLock gate;
  private final StateDb db;
  private final List<SqliteSession> sessions = new CopyOnWriteArrayList<>();
  private final OwnerLiveness liveness;
  private final GroupCommitter<Op<?>> commits;
  private final AutoCloseable pulseWatch;
  private PoolState cached;
  private long cachedVersion = -1;
  private boolean firstTransaction = true;

  /** The sequence of the last command applied; written by the coordinator only. */
  private volatile long sequence;

  /** What this JVM examined of the pool's commits. */
  private final PulseLedger ledger;

  private int users;

  private record Op<R>(PoolCommand<R> command, TimeSource clock, PendingOutcome<R> result) {}

  private SqlitePool(
      PoolDirectory dir, LimiterConfig config, GateLock gate, StateDb db, long version) {
    this.dir = dir;
    // Owners opened from now on are new: no earlier commit can concern them.
    this.ledger = new PulseLedger(version);
    this.config = config;
    this.gate = gate;
    this.db = db;
    this.liveness = new OwnerLiveness(dir, this::wakeAll);
    this.pulseWatch = PulseWatcher.instance().watch(dir, this::onPulse);
    this.commits =
        new GroupCommitter<>("sluice-sqlite-" + dir.path().getFileName(), MAX_BATCH, new Batches());
  }

  /** The coordinator's side: batches of commands, and the files it closes when it stops. */
  private final class Batches implements GroupCommitter.Store<Op<?>> {
    @Override
    public void run(List<Op<?>> batch) {
      runBatch(batch);
    }

    @Override
    public void fail(Op<?> op, Throwable cause) {
      op.result()
          .completeExceptionally(cause instanceof SluiceException se ? se : backendFailure(cause));
    }

    @Override
    public RuntimeException closed() {
      return new BackendFailureException("pool " + dir + " is closed in this JVM", null);
    }

    @Override
    public void stopped() {
      db.close();
      closeQuietly(gate);
    }
  }

  /** Joins this JVM's view of the pool directory, opening it if needed. */
  static SqlitePool attach(
      PoolDirectory dir, LimiterConfig config, long now, int traceCapacity, boolean fullSync) {
    synchronized (OPEN) {
      SqlitePool pool = OPEN.get(dir.path());
      if (pool == null) {
        // A pool this JVM refuses leaves the directory as it found it: checked before the gate
        // file and the subdirectories exist.
        StateDb.precheck(dir, config);
        dir.createLayout();
        GateLock gate;
        try {
          gate = GateLock.open(dir);
        } catch (IOException e) {
          throw new BackendFailureException("pool " + dir + ": cannot open gate.lock: " + e, e);
        }
        StateDb db;
        long version;
        GateLock.Hold hold = gate.hold();
        try {
          db = StateDb.open(dir, config, now, traceCapacity, fullSync);
          try {
            version = db.readVersion();
          } catch (SQLException e) {
            db.close();
            throw new StoreFormatException("pool " + dir + ": cannot read state.db: " + e, e);
          }
        } catch (RuntimeException e) {
          closeQuietly(gate);
          throw e;
        } finally {
          hold.close();
        }
        pool = new SqlitePool(dir, config, gate, db, version);
        OPEN.put(dir.path(), pool);
      } else if (!pool.config.equals(config)) {
        throw new dev.sluice.ConfigMismatchException(dir.toString(), pool.config, config);
      }
      pool.users++;
      return pool;
    }
  }

  void join(SqliteSession s) {
    sessions.add(s);
  }

  /** An owner of this JVM ended; the other owners are woken so that a command reclaims it. */
  void ownerGone(String ownerId) {
    liveness.localOwnerGone(ownerId);
  }

  /** Leaves; the last user stops the coordinator and closes the files. */
  void leave(SqliteSession s) {
    sessions.remove(s);
    synchronized (OPEN) {
      if (--users > 0) {
        return;
      }
      OPEN.remove(dir.path());
    }
    closeQuietly(pulseWatch);
    liveness.close();
    // Returns, unless called by the coordinator itself, once the database is closed (SQLite then
    // removes the WAL) and the thread is gone, so a caller may move or delete the directory as soon
    // as its limiter is closed.
    commits.close();
  }

  PoolDirectory directory() {
    return dir;
  }

  long appliedSequence() {
    return sequence;
  }

  <R> CompletableFuture<PoolOutcome<R>> submit(PoolCommand<R> command, TimeSource clock) {
    PendingOutcome<R> f = new PendingOutcome<>();
    Op<R> op = new Op<>(command, clock, f);
    if (commits.onCoordinator()) {
      // A continuation of this coordinator's own work: run it now, the queue would wait for us.
      runBatch(List.of(op));
    } else {
      commits.submit(op);
    }
    return f;
  }

  private void runBatch(List<Op<?>> queued) {
    Wakeups.record();
    List<Op<?>> batch = queued;
    List<PoolOutcome<?>> results = new ArrayList<>(queued.size());
    boolean changed = false;
    Set<String> affected = Set.of();
    boolean everyone = false;
    RuntimeException failure = null;
    try {
      GateLock.Hold hold = gate.hold();
      try {
        // Claimed only now that the gate is held: a caller that gave up waiting for it took its
        // command back, and the store must never apply it.
        batch = claimed(queued);
        if (batch.isEmpty()) {
          return;
        }
        cached = db.read(config, cached, cachedVersion);
        cachedVersion = db.version;
        Set<String> dead = liveness.provenDead(cached, firstTransaction);
        if (firstTransaction) {
          // Tokens issued by commits a power loss undid may be out in the world: skip them.
          cached.raiseFencingFloor(db.fencingReserved);
          firstTransaction = false;
        }
        boolean deadlineMoved = false;
        for (Op<?> op : batch) {
          PoolContext ctx = new PoolContext(op.clock().wallMillis(), dead, sequence + 1);
          PoolOutcome<?> outcome = PoolAlgorithm.apply(cached, op.command(), ctx);
          sequence = ctx.sequence();
          results.add(outcome);
          affected = union(affected, outcome.concernedOwners());
          deadlineMoved |= outcome.deadlineMoved();
          everyone |= outcome.concernsEveryone();
          dead = Set.of();
        }
        changed = cached.isDirty();
        if (changed) {
          long reserved = db.fencingReserved;
          // Tokens past the durable reservation: this commit moves it and must survive a power
          // loss, or a restart could issue those tokens again.
          boolean durable = cached.lastFencingToken() >= reserved;
          if (durable) {
            reserved = cached.lastFencingToken() + StateDb.FENCING_BLOCK;
          }
          long next = cachedVersion + 1;
          boolean othersConcerned = everyone || othersConcerned(cached, affected, deadlineMoved);
          // Format 2 keeps the last pulsed version in the row; in format 1 (where processes of an
          // older Sluice pulse without recording it) the pulse file, written under the gate only,
          // holds the last pulse.
          long previousPulse =
              db.lastPulse != StoredPoolState.UNKNOWN
                  ? db.lastPulse
                  : PulseText.lastVersion(Pulse.read(dir));
          String pulse = PulseText.format(next, JVM_TOKEN, affected, everyone, previousPulse);
          db.write(
              hold,
              cached,
              next,
              reserved,
              durable,
              othersConcerned ? next : previousPulse,
              othersConcerned ? pulse : null);
          // Every pulse up to the previous one examined, and this commit is this JVM's own:
          // nothing up to it can concern this JVM's owners unseen.
          ledger.committed(next, previousPulse, othersConcerned ? pulse : null);
          cachedVersion = next;
          cached.markClean();
        }
      } catch (SQLException | IOException | RuntimeException e) {
        cached = null;
        failure = e instanceof SluiceException se ? se : backendFailure(e);
      } finally {
        hold.close();
      }
    } catch (RuntimeException e) {
      failure = backendFailure(e);
    }
    for (int i = 0; i < batch.size(); i++) {
      complete(batch.get(i), failure == null ? results.get(i) : null, failure);
    }
    if (failure == null) {
      liveness.watchOwnersOf(cached);
    }
    if (liveness.hasSuspects()) {
      // Suspected during this batch, after its proofs: the wake it sent may have found nothing
      // waiting yet, or a sync already past its proofs, which would take it as covered.
      wakeAll();
    }
    if (changed && sessions.size() > 1) {
      if (everyone) {
        wakeAll();
      } else {
        wake(affected);
      }
    }
  }

  /**
   * The commands of {@code queued} that their callers did not take back, claimed for this batch.
   */
  private static List<Op<?>> claimed(List<Op<?>> queued) {
    List<Op<?>> batch = null;
    for (int i = 0; i < queued.size(); i++) {
      Op<?> op = queued.get(i);
      if (!op.result().claim()) {
        if (batch == null) {
          batch = new ArrayList<>(queued.subList(0, i));
        }
      } else if (batch != null) {
        batch.add(op);
      }
    }
    return batch == null ? queued : batch;
  }

  /**
   * Whether a commit may concern an owner in another JVM: one of its requests was granted or ended,
   * or it still waits and the pool's next deadline moved, so the timer it armed is wrong. Otherwise
   * no other process has anything to learn, so the commit skips the pulse; only this JVM's owners,
   * woken directly, learn of it. A process that enqueues later reads the state under the gate, and
   * each pulse names the one before it, so a process that saw that one knows it missed nothing.
   */
  private boolean othersConcerned(PoolState s, Set<String> affected, boolean deadlineMoved) {
    Set<String> local = new java.util.HashSet<>();
    for (SqliteSession session : sessions) {
      local.add(session.ownerId());
    }
    for (String owner : affected) {
      if (!local.contains(owner)) {
        return true;
      }
    }
    if (!deadlineMoved) {
      return false;
    }
    for (dev.sluice.spi.WaiterRecord w : s.waiters()) {
      if (!local.contains(w.owner())) {
        return true;
      }
    }
    return false;
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    if (b.isEmpty()) {
      return a;
    }
    if (a.isEmpty()) {
      return b;
    }
    Set<String> both = new java.util.HashSet<>(a);
    both.addAll(b);
    return both;
  }

  @SuppressWarnings("unchecked")
  private static <R> void complete(Op<R> op, PoolOutcome<?> result, RuntimeException failure) {
    if (failure != null) {
      op.result().completeExceptionally(failure);
    } else {
      op.result().complete((PoolOutcome<R>) result);
    }
  }

  private BackendFailureException backendFailure(Throwable e) {
    return SqliteFailures.of(dir.toString(), e);
  }

  /**
   * A pulse names its commit's version, its writer, the owners whose queue entries it removed
   * (granted, dropped or withdrawn) and the pulse before it. When that previous pulse is one this
   * JVM examined, only the named owners need to look; after a gap (pulses coalesce) every owner
   * looks.
   */
  private void onPulse() {
    String text = Pulse.read(dir);
    PulseText p = PulseText.parse(text);
    switch (ledger.pulse(text, p)) {
      case EVERYONE -> wakeAll();
      case NAMED -> {
        if (!p.writer().equals(JVM_TOKEN)) {
          wake(p.owners());
        }
      }
      case NONE -> {}
    }
  }

  private void wakeAll() {
    for (SqliteSession s : sessions) {
      s.wake();
    }
  }

  private void wake(Set<String> owners) {
    if (owners.isEmpty()) {
      return;
    }
    for (SqliteSession s : sessions) {
      if (owners.contains(s.ownerId())) {
        s.wake();
      }
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // Closing is best effort.
    }
  }
}
