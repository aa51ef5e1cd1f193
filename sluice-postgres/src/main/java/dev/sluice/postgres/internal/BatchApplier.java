/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.LimiterConfig;
import dev.sluice.OwnerLostException;
import dev.sluice.TimeSource;
import dev.sluice.TraceEvent;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolAlgorithm;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolContext;
import dev.sluice.spi.PoolOutcome;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.WaiterRecord;
import dev.sluice.spi.support.PoolStateCodec;
import dev.sluice.spi.support.PoolStateRefresh;
import dev.sluice.spi.support.StoredPoolState;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What one batch does inside its transaction: locks the pool's row ({@code SELECT ... FOR UPDATE}),
 * reads which owners are dead, applies {@link PoolAlgorithm} to every command (the first one
 * reclaiming the dead owners), writes the row, deletes the dead owners' rows and notifies the
 * owners concerned in other JVMs. No retry loop: the row lock makes every transaction on the pool
 * wait its turn.
 *
 * <p>Time is the server's {@code clock_timestamp()}, read in the same transaction, unless the store
 * was given a client clock (tests). A cached copy of the state is kept between transactions and
 * brought up to date from the row only when its version moved.
 *
 * <p>Not thread-safe: runs on the coordinator thread only (its sequence may be read anywhere).
 */
final class BatchApplier {
  private final PgPool view;
  private final PgSettings settings;
  private final LimiterConfig config;
  private final PoolRows rows;
  private final String token;
  private final ServerClock serverClock;
  private PoolState cached;
  private long cachedVersion = -1;

  /** The sequence of the last command applied; written by the coordinator only. */
  private volatile long sequence;

  BatchApplier(
      PgPool view, PgSettings settings, LimiterConfig config, PoolRows rows, String token) {
    this.view = view;
    this.settings = settings;
    this.config = config;
    this.rows = rows;
    this.token = token;
    this.serverClock = ServerClock.of(settings.dataSource());
  }

  long sequence() {
    return sequence;
  }

  /** A batch committed: its state is the cached copy from now on. */
  void committed(AppliedBatch applied) {
    cached = applied.state();
    cached.markClean();
    cachedVersion = applied.version();
  }

  /** A batch failed: the cached copy may be ahead of the row, so the next one reads it in full. */
  void forget() {
    cached = null;
    cachedVersion = -1;
  }

  /**
   * Applies the batch in {@code c}'s transaction: locks and reads the row, reads which owners are
   * dead, applies every command not taken back, writes. {@code null} if every command was taken
   * back before the lock was held.
   */
  AppliedBatch apply(Connection c, List<PoolBatches.Op<?>> queued)
      throws SQLException, PgFailures.MalformedStateException {
    // This JVM's owners before the liveness read: each registered its row before it joined, and
    // joined before its command was queued, so the read finds every owner of the batch that was not
    // reclaimed.
    Set<String> local = view.localOwners();
    long before = System.currentTimeMillis();
    PoolRows.Start start =
        rows.lockAndReadLiveness(
            c,
            cached == null ? -1 : cachedVersion,
            idleTimeoutMillis(),
            2 * settings.heartbeatTimeout().toMillis(),
            local);
    // Claimed only now that the row lock is held: a caller that gave up waiting for it took its
    // command back, and the store must never apply it.
    List<PoolBatches.Op<?>> batch = claimed(queued);
    if (batch.isEmpty()) {
      return null;
    }
    PoolRows.Locked locked = start.locked();
    PoolRows.Liveness live = start.liveness();
    serverClock.observe(live.serverMillis(), before, System.currentTimeMillis());
    PoolState state = current(locked);
    Set<String> dead = deadOwners(state, live);
    Set<String> lost = new HashSet<>();
    for (String owner : local) {
      if (dead.contains(owner) || !live.registered().contains(owner)) {
        lost.add(owner);
      }
    }
    List<Object> results = new ArrayList<>(batch.size());
    Set<String> affected = new HashSet<>();
    boolean deadlineMoved = false;
    Set<String> reclaim = dead;
    for (PoolBatches.Op<?> op : batch) {
      String issuer = op.command().owner();
      if (view.isLost(issuer) || lost.contains(issuer) || !live.registered().contains(issuer)) {
        lost.add(issuer);
        results.add(new OwnerLostException(settings.pool(), issuer));
        continue;
      }
      PoolOutcome<?> outcome = apply(state, op.command(), reclaim, live.serverMillis());
      reclaim = Set.of();
      results.add(outcome);
      affected.addAll(outcome.concernedOwners());
      if (outcome.concernsEveryone()) {
        // A drain's waits watch every owner of the pool.
        affected.addAll(live.registered());
      }
      deadlineMoved |= outcome.deadlineMoved();
    }
    if (!reclaim.isEmpty()) {
      // Nobody's command carried the reclaim: a tick of no owner does, so it is never put off.
      PoolOutcome<?> outcome = apply(state, new PoolCommand.Tick(""), reclaim, live.serverMillis());
      affected.addAll(outcome.concernedOwners());
      deadlineMoved |= outcome.deadlineMoved();
    }
    boolean changed = state.isDirty();
    if (changed) {
      // Watchers hear of every change, here and in other JVMs; none, and this costs nothing.
      affected.addAll(live.watchers());
    }
    long version = changed ? locked.version() + 1 : locked.version();
    long txid = 0;
    if (changed || !live.dead().isEmpty()) {
      String payload = payload(state, affected, deadlineMoved, live.dead(), local);
      byte[] row = changed ? PoolStateCodec.write(state, 0, state.trace().entries()) : null;
      txid = rows.write(c, version, row, live.dead(), payload);
    }
    return new AppliedBatch(batch, results, state, version, lost, affected, changed, txid);
  }

  /**
   * How long a batch's transaction may sit idle before the server ends it: a third of the heartbeat
   * timeout, the interval at which a live JVM renews its owners. A JVM stopped inside a transaction
   * (SIGSTOP, a long pause) would otherwise hold the pool's row lock, and with it every other JVM
   * of the pool, until it runs again; its batch then fails as a lost connection does.
   */
  private long idleTimeoutMillis() {
    return Math.max(1, settings.heartbeatTimeout().toMillis() / 3);
  }

  private PoolOutcome<?> apply(
      PoolState state, PoolCommand<?> command, Set<String> reclaim, long serverMillis) {
    long now = settings.clientClock().map(TimeSource::wallMillis).orElse(serverMillis);
    PoolContext ctx = new PoolContext(now, reclaim, sequence + 1);
    PoolOutcome<?> outcome = PoolAlgorithm.apply(state, command, ctx);
    sequence = ctx.sequence();
    return outcome;
  }

  /**
   * The owners to reclaim: registered ones whose lock is free or whose heartbeat lapsed, and any
   * owner in the state without a row (a row is written before an owner's first command and deleted
   * only when it is reclaimed).
   */
  private static Set<String> deadOwners(PoolState s, PoolRows.Liveness live) {
    Set<String> dead = new HashSet<>(live.dead());
    for (LeaseRecord l : s.leases()) {
      if (!live.registered().contains(l.owner())) {
        dead.add(l.owner());
      }
    }
    for (WaiterRecord w : s.waiters()) {
      if (!live.registered().contains(w.owner())) {
        dead.add(w.owner());
      }
    }
    return dead;
  }

  /**
   * The NOTIFY payload of a commit, or {@code null} when no owner outside this view has anything to
   * learn: the owners whose requests it granted or ended; when the pool's next deadline moved,
   * every owner that waits (its timer is armed for the old one); and the owners it reclaimed, so
   * that one whose JVM still lives learns at once that it was declared dead.
   */
  private String payload(
      PoolState s,
      Set<String> affected,
      boolean deadlineMoved,
      Set<String> reclaimed,
      Set<String> local) {
    Set<String> told = new HashSet<>(affected);
    told.addAll(reclaimed);
    if (deadlineMoved) {
      for (WaiterRecord w : s.waiters()) {
        told.add(w.owner());
      }
    }
    told.removeAll(local);
    told.remove("");
    return told.isEmpty() ? null : NotifyPayload.naming(token, told).text();
  }

  /** The state as the locked row holds it: the cached copy, refreshed or rebuilt if it moved. */
  private PoolState current(PoolRows.Locked locked) throws PgFailures.MalformedStateException {
    if (locked.state() == null && cached != null) {
      return cached;
    }
    StoredPoolState stored;
    try {
      stored = PoolStateCodec.read(locked.state() == null ? new byte[0] : locked.state());
    } catch (IOException e) {
      throw new PgFailures.MalformedStateException(
          settings.describe() + ": its state row does not decode: " + e.getMessage(), e);
    }
    List<TraceEvent> trace = stored.pendingTrace();
    if (cached != null) {
      long next = cached.trace().nextSequence();
      List<TraceEvent> newer = new ArrayList<>();
      for (TraceEvent e : trace) {
        if (e.sequence() >= next) {
          newer.add(e);
        }
      }
      if (PoolStateRefresh.apply(cached, stored, newer)) {
        return cached;
      }
    }
    return stored.restore(config, trace);
  }

  /**
   * The commands of {@code queued} that their callers did not take back, claimed for this batch.
   */
  private static List<PoolBatches.Op<?>> claimed(List<PoolBatches.Op<?>> queued) {
    List<PoolBatches.Op<?>> batch = new ArrayList<>(queued.size());
    for (PoolBatches.Op<?> op : queued) {
      if (op.result().claim()) {
        batch.add(op);
      }
    }
    return batch;
  }
}
