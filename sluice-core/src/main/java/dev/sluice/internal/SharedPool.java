/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.AccountingOverflowException;
import dev.sluice.Admission;
import dev.sluice.BackendFailureException;
import dev.sluice.ConfigMismatchException;
import dev.sluice.LeaseExpiredException;
import dev.sluice.LimiterClosedException;
import dev.sluice.LimiterConfig;
import dev.sluice.PoolSnapshot;
import dev.sluice.QueueTimeoutException;
import dev.sluice.SluiceException;
import dev.sluice.TimeSource;
import dev.sluice.spi.AcquireAnswer;
import dev.sluice.spi.EndedRequest;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolOutcome;
import dev.sluice.spi.PoolSession;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.PoolStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This JVM's one owner of a pool, shared by every limiter on it: the store session, the requests
 * that wait in the store, and one timer for the pool's next useful deadline.
 *
 * <p>Every command's outcome passes through {@link #handle}, which delivers the grants and ends it
 * reports to this owner's waiting requests and re-arms the timer. After a store failure the pool
 * admits nothing new and fails its waiting requests; releases still go to the store.
 *
 * <p>Thread-safe.
 */
final class SharedPool {
  private static final Map<String, SharedPool> REGISTRY = new HashMap<>();

  private final String identity;
  private final String name;
  private final LimiterConfig config;
  private final PoolSession session;
  private final String owner;
  private final TimeSource storeClock;
  private final ExecutorService callbacks;
  private final ConcurrentHashMap<Long, Ticket> waiting = new ConcurrentHashMap<>();
  private final HandOffs handOffs;
  private final ThreadLocal<Boolean> sendingHeld = new ThreadLocal<>();
  private final AtomicLong refs = new AtomicLong();
  private final PoolTimer timer;
  private final SyncRequests syncs;
  private final Recovery recovery;
  private volatile BackendFailureException failure;
  private volatile boolean detached;
  private int users;

  private SharedPool(PoolStore store, LimiterConfig config, PoolSession session) {
    this.identity = store.poolIdentity();
    this.name = store.poolName();
    this.config = config;
    this.session = session;
    this.owner = session.ownerId();
    this.storeClock = store.clock();
    this.callbacks = CallbackExecutors.forPool(name);
    this.handOffs = new HandOffs(config.localHandOffs(), owner, storeClock);
    this.timer = new PoolTimer(storeClock, this::onTimer);
    this.syncs = new SyncRequests(session::appliedSequence, this::sendSync);
    this.recovery = new Recovery(session, storeClock, this::handle);
  }

  /** Joins the JVM's owner of the pool, opening a session if there is none. */
  static SharedPool attach(PoolStore store, LimiterConfig config) {
    synchronized (REGISTRY) {
      SharedPool pool = REGISTRY.get(store.poolIdentity());
      if (pool != null) {
        if (!pool.config.equals(config)) {
          throw new ConfigMismatchException(store.poolName(), pool.config, config);
        }
        pool.users++;
        return pool;
      }
      PoolSession session = store.open(config);
      pool = new SharedPool(store, config, session);
      pool.users = 1;
      REGISTRY.put(pool.identity, pool);
      session.onChange(pool::onForeignChange);
      return pool;
    }
  }

  /** Leaves the pool; the last limiter to leave retires the owner and closes the session. */
  void detach() {
    synchronized (REGISTRY) {
      if (--users > 0) {
        return;
      }
      REGISTRY.remove(identity);
      detached = true;
      timer.stop();
      recovery.stop();
      handOffs.clear();
      callbacks.shutdown();
      try {
        session.retire();
      } catch (RuntimeException e) {
        // A failed store cannot retire the owner; closing the session still frees this JVM's
        // side, and a store with owner liveness reclaims what the owner held.
        System.getLogger(SharedPool.class.getName())
            .log(System.Logger.Level.WARNING, "pool '" + name + "': retiring the owner failed", e);
        session.close();
      }
    }
  }

  String name() {
    return name;
  }

  LimiterConfig config() {
    return config;
  }

  TimeSource storeClock() {
    return storeClock;
  }

  ExecutorService callbacks() {
    return callbacks;
  }

  /** Whether released units may be passed to this JVM's waiting requests. */
  boolean handsOff() {
    return handOffs.enabled();
  }

  long nextRef() {
    return refs.incrementAndGet();
  }

  /** Throws if the store has failed: nothing new is admitted after a failure. */
  void checkHealthy() {
    BackendFailureException f = failure;
    if (f != null) {
      throw new BackendFailureException("pool '" + name + "' stopped after a store failure", f);
    }
  }

  Admission admission(LeaseRecord l) {
    return new Admission(
        l.id(),
        Instant.ofEpochMilli(l.grantedAt()),
        l.expiresAt() == PoolState.NEVER
            ? Optional.empty()
            : Optional.of(Instant.ofEpochMilli(l.expiresAt())),
        l.weight(),
        l.fencingToken());
  }

  // ---- running commands

  /** Runs a command on this thread and handles its outcome. */
  <T> T execute(PoolCommand<T> command) {
    if (detached) {
      throw detachedException();
    }
    PoolOutcome<T> o;
    try {
      recovery.flush();
      o = session.execute(command);
    } catch (RuntimeException e) {
      throw failure(e);
    }
    handle(o);
    return o.value();
  }

  /** Submits a command and handles its outcome when it arrives. */
  <T> CompletableFuture<T> submit(PoolCommand<T> command) {
    if (detached) {
      // Only a clean-up can arrive this late; retiring the owner already removed what it held.
      return CompletableFuture.failedFuture(detachedException());
    }
    CompletableFuture<PoolOutcome<T>> f;
    try {
      recovery.flush();
      f = session.submit(command);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(failure(e));
    }
    return f.handle(
        (o, e) -> {
          if (e != null) {
            throw failure(unwrap(e));
          }
          handle(o);
          return o.value();
        });
  }

  PoolSnapshot inspect() {
    return execute(new PoolCommand.Inspect(owner));
  }

  OptionalLong currentReservoir() {
    return execute(new PoolCommand.ReadReservoir(owner));
  }

  OptionalLong incrementReservoir(long delta) {
    return execute(new PoolCommand.IncrementReservoir(owner, delta));
  }

  /**
   * Sends an acquire for a ticket and routes the answer to it. The ticket is registered as waiting
   * before the acquire leaves, so an outcome of another of this JVM's commands that grants or ends
   * it, and may be handled before this acquire's own answer, finds it.
   */
  void acquire(Ticket t, long queueWaitMillis, boolean async) {
    if (async && queueWaitMillis != 0 && handOffs.enabled() && handOffs.hold(t)) {
      // Held in this JVM until a pass or its turn to wait at the pool.
      BackendFailureException f = failure;
      if (f != null) {
        // The store failed while it was being held: failure() may have missed it.
        t.fail(f);
      }
      return;
    }
    send(t, queueWaitMillis, async);
  }

  /**
   * Sends this JVM's next held request while it has none waiting at the pool. Not re-entered on one
   * thread: a store that answers on the sending thread would otherwise nest one call per request
   * admitted at once; the outer loop asks again after each send instead.
   */
  private void sendHeld() {
    if (!handOffs.enabled() || failure != null || detached || sendingHeld.get() != null) {
      return;
    }
    sendingHeld.set(Boolean.TRUE);
    try {
      Ticket t;
      while ((t = handOffs.nextToSend()) != null) {
        send(t, t.queueWaitMillis, true);
      }
    } finally {
      sendingHeld.remove();
    }
  }

  private void send(Ticket t, long queueWaitMillis, boolean async) {
    PoolCommand.Acquire acquire =
        new PoolCommand.Acquire(owner, t.ref, t.weight, t.lifetime, queueWaitMillis);
    CompletableFuture<PoolOutcome<AcquireAnswer>> f;
    synchronized (t) {
      if (t.beginSubmit()) {
        waiting.put(t.ref, t);
        try {
          recovery.flush();
          f = session.submit(acquire);
        } catch (RuntimeException e) {
          f = CompletableFuture.failedFuture(e);
        }
      } else {
        f = null;
      }
    }
    if (f == null) {
      // Withdrawn or passed a unit before it was sent: the store never sees it, and if it was this
      // JVM's request for the pool, the next held one takes its turn.
      handOffs.left(t.ref);
      sendHeld();
      return;
    }
    if (!async) {
      PoolOutcome<AcquireAnswer> o;
      try {
        o = f.join();
      } catch (CompletionException e) {
        waiting.remove(t.ref, t);
        t.refused();
        throw failure(unwrap(e));
      }
      answered(t, o);
      return;
    }
    f.whenComplete(
        (o, e) -> {
          if (e != null) {
            waiting.remove(t.ref, t);
            t.dropped(failure(unwrap(e)));
            t.refused();
          } else {
            answered(t, o);
          }
        });
  }

  private void answered(Ticket t, PoolOutcome<AcquireAnswer> o) {
    AcquireAnswer r = o.value();
    if (r instanceof AcquireAnswer.Queued q) {
      t.storeEntry(q.entryId(), q.queueDeadline());
      // Syncs built before now left this request out; one may have been applied after its acquire.
      syncs.entryKnown(o.sequence());
    } else {
      waiting.remove(t.ref, t);
    }
    handle(o);
    route(t, r);
  }

  private void route(Ticket t, AcquireAnswer r) {
    if (!(r instanceof AcquireAnswer.Queued)) {
      handOffs.left(t.ref);
    }
    if (r instanceof AcquireAnswer.Granted g) {
      t.acquiredNow(g.lease());
    } else if (r instanceof AcquireAnswer.Queued q) {
      t.queued();
    } else if (r instanceof AcquireAnswer.Overflow o) {
      t.dropped(
          new AccountingOverflowException(
              "pool '"
                  + name
                  + "' holds weight "
                  + o.activeWeight()
                  + "; adding weight "
                  + o.weight()
                  + " would overflow a long"));
      t.refused();
    } else {
      t.refused();
    }
    BackendFailureException f = failure;
    if (f != null) {
      // The store failed while this acquire was on its way: failure() may have missed it.
      t.fail(f);
    }
    sendHeld();
  }

  /**
   * Withdraws requests (or gives back their racing grants) in one command, then passes on or gives
   * back the units that were passed to any of them in this JVM.
   */
  CompletableFuture<?> withdrawAsync(Collection<Ticket> tickets) {
    Set<Long> withdrawn = new HashSet<>(tickets.size() * 2);
    for (Ticket t : tickets) {
      withdrawn.add(t.ref);
    }
    CompletableFuture<?> done = withdraw(withdrawn);
    for (Ticket t : tickets) {
      if (t.heldPassedUnit()) {
        done = CompletableFuture.allOf(done, releaseAsync(t.lease()));
      }
    }
    return done;
  }

  /** Withdraws requests; what a transient failure keeps from the store is taken back later. */
  private CompletableFuture<Integer> withdraw(Set<Long> ownerRefs) {
    return submit(new PoolCommand.Withdraw(owner, ownerRefs))
        .whenComplete(
            (n, e) -> {
              if (e != null && transientFailure(e)) {
                recovery.withdrawLater(ownerRefs);
              }
            });
  }

  /** Releases a lease, or passes its unit on, and waits for the store to apply a release. */
  void release(LeaseRecord lease) {
    if (!passed(lease)) {
      try {
        execute(new PoolCommand.Release(owner, lease.id()));
      } catch (BackendFailureException e) {
        if (e.kind() == BackendFailureException.Kind.TRANSIENT) {
          recovery.releaseLater(lease);
        }
        throw e;
      }
    }
  }

  /** Releases a lease, or passes its unit on, without waiting. */
  CompletableFuture<Boolean> releaseAsync(LeaseRecord lease) {
    if (passed(lease)) {
      return CompletableFuture.completedFuture(true);
    }
    return submit(new PoolCommand.Release(owner, lease.id()))
        .whenComplete(
            (r, e) -> {
              if (e != null && transientFailure(e)) {
                recovery.releaseLater(lease);
              }
            });
  }

  private static boolean transientFailure(Throwable e) {
    return unwrap(e) instanceof BackendFailureException b
        && b.kind() == BackendFailureException.Kind.TRANSIENT;
  }

  /** Passes a released unit to a request of this JVM; false if it goes back to the pool. */
  private boolean passed(LeaseRecord lease) {
    if (!handOffs.enabled()) {
      return false;
    }
    if (failure == null && !detached && handOffs.pass(lease, this::withdrawPassed)) {
      // The request that took the unit may have been the one this JVM had at the pool.
      sendHeld();
      return true;
    }
    handOffs.returned(lease.id());
    return false;
  }

  /** Takes a request that was passed a unit out of the store's queue, or gives back its grant. */
  private void withdrawPassed(Ticket t) {
    // Out of the waiting requests first: it holds a unit, so a store failure must not fail it,
    // and a grant that raced the pass finds no request and is given back by this withdrawal.
    waiting.remove(t.ref, t);
    withdraw(Set.of(t.ref));
  }

  /** A request's acquire was answered "queued": from now on it may be passed a unit. */
  void queuedAtPool(Ticket t) {
    handOffs.sent(t);
  }

  void forget(Ticket t) {
    waiting.remove(t.ref, t);
    handOffs.left(t.ref);
    sendHeld();
  }

  // ---- outcomes

  private void handle(PoolOutcome<?> o) {
    boolean mine = false;
    for (LeaseRecord g : o.grants()) {
      if (g.owner().equals(owner)) {
        mine = true;
        handOffs.left(g.ownerRef());
        // No ticket: it was withdrawn, and its withdraw command gives the grant back.
        Ticket t = waiting.remove(g.ownerRef());
        if (t != null) {
          t.granted(g);
        }
      }
    }
    for (EndedRequest e : o.ended()) {
      if (e.owner().equals(owner)) {
        mine = true;
        handOffs.left(e.ownerRef());
        Ticket t = waiting.remove(e.ownerRef());
        if (t != null) {
          t.dropped(endException(e, t));
        }
      }
    }
    timer.rearm(o.nextDeadline(), o.sequence());
    if (mine) {
      sendHeld();
    }
  }

  private SluiceException endException(EndedRequest e, Ticket t) {
    switch (e.reason()) {
      case TIMED_OUT:
        return new QueueTimeoutException(name, Duration.ofMillis(t.queueWaitMillis));
      case LEASE_LOST:
        return new LeaseExpiredException(name, e.entryId(), t.weight);
      default:
        return new BackendFailureException(
            "pool '"
                + name
                + "': the store declared this JVM's owner "
                + owner
                + " dead and reclaimed request "
                + e.entryId(),
            null);
    }
  }

  private void onTimer() {
    if (failure == null && !detached) {
      submit(new PoolCommand.Tick(owner));
    }
  }

  private void onForeignChange() {
    if (failure != null || detached || waiting.isEmpty()) {
      return;
    }
    syncs.woken();
  }

  /** Asks the store what became of every request whose queue entry this JVM knows. */
  private void sendSync() {
    List<PoolCommand.Sync.Pending> pending = new ArrayList<>(waiting.size());
    for (Ticket t : waiting.values()) {
      if (t.storeEntryId() != 0) {
        pending.add(new PoolCommand.Sync.Pending(t.ref, t.storeEntryId(), t.storeQueueDeadline()));
      }
    }
    CompletableFuture<PoolOutcome<Void>> f;
    try {
      f = session.submit(new PoolCommand.Sync(owner, pending));
    } catch (RuntimeException e) {
      f = CompletableFuture.failedFuture(e);
    }
    f.whenComplete(
        (o, e) -> {
          if (e != null) {
            syncs.answered(-1);
            failure(unwrap(e));
          } else {
            handle(o);
            syncs.answered(o.sequence());
          }
        });
  }

  // ---- failure

  /**
   * Turns a store error into the exception to report. A {@link SluiceException} other than a
   * backend failure is a refusal, reported as it is. A transient failure fails every waiting
   * request and leaves the pool usable (the requests' withdrawals, or the {@link Recovery} after
   * them, take back what they left in the store); anything else stops the pool.
   */
  private SluiceException failure(Throwable e) {
    if (e instanceof SluiceException refusal && !(e instanceof BackendFailureException)) {
      return refusal;
    }
    BackendFailureException f =
        e instanceof BackendFailureException b
            ? b
            : new BackendFailureException("store of pool '" + name + "' failed: " + e, e);
    if (f.kind() == BackendFailureException.Kind.TRANSIENT) {
      failWaiting(f);
      return f;
    }
    boolean first;
    synchronized (this) {
      first = failure == null;
      if (first) {
        failure = f;
      }
    }
    if (first) {
      failWaiting(f);
    }
    return f;
  }

  private void failWaiting(BackendFailureException f) {
    for (Ticket t : waiting.values()) {
      t.fail(f);
    }
    for (Ticket t : handOffs.heldRequests()) {
      t.fail(f);
    }
  }

  private LimiterClosedException detachedException() {
    return new LimiterClosedException("every limiter of pool '" + name + "' is closed");
  }

  private static Throwable unwrap(Throwable e) {
    return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
  }
}
