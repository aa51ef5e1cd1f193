/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.AccountingOverflowException;
import dev.sluice.Admission;
import dev.sluice.BackendFailureException;
import dev.sluice.ConfigMismatchException;
import dev.sluice.LimiterClosedException;
import dev.sluice.LimiterConfig;
import dev.sluice.QueueTimeoutException;
import dev.sluice.SluiceException;
import dev.sluice.TimeSource;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolSession;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.PoolStore;
import dev.sluice.spi.Transition;
import dev.sluice.spi.WaiterRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This JVM's one owner of a pool, shared by every limiter on it: the store session, the requests
 * that wait in the store, and one timer for the pool's next useful deadline.
 *
 * <p>Every transition's answer passes through {@link #handle}, which delivers the grants and drops
 * it reports to this owner's waiting requests and re-arms the timer. After a store failure the pool
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
  private final AtomicLong stamps = new AtomicLong();
  private volatile BackendFailureException failure;
  private volatile boolean detached;
  private final java.util.concurrent.atomic.AtomicBoolean syncPending =
      new java.util.concurrent.atomic.AtomicBoolean();
  private int users;

  private TimeSource.Timer timer;
  private volatile long timerDeadline = PoolState.NEVER;
  private long timerStamp;

  private SharedPool(PoolStore store, LimiterConfig config, PoolSession session) {
    this.identity = store.poolIdentity();
    this.name = store.poolName();
    this.config = config;
    this.session = session;
    this.owner = session.ownerId();
    this.storeClock = store.clock();
    this.callbacks = CallbackExecutors.forPool(name);
    this.handOffs = new HandOffs(config.localHandOffs(), owner, storeClock);
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
      synchronized (this) {
        detached = true;
        if (timer != null) {
          timer.cancel();
          timer = null;
        }
      }
      handOffs.clear();
      callbacks.shutdown();
      try {
        session.close(Transitions.retire(owner));
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
        Transitions.instant(l.expiresAt()),
        l.weight(),
        l.fencingToken());
  }

  // ---- running transitions

  private <T> Transition<Applied<T>> stamped(Transition<Applied<T>> t, long[] stamp) {
    return (s, ctx) -> {
      Applied<T> a = t.apply(s, ctx);
      stamp[0] = stamps.incrementAndGet();
      return a;
    };
  }

  /** Runs a transition on this thread and handles its answer. */
  <T> T execute(Transition<Applied<T>> transition) {
    if (detached) {
      throw detachedException();
    }
    long[] stamp = new long[1];
    Applied<T> a;
    try {
      a = session.execute(stamped(transition, stamp));
    } catch (RuntimeException e) {
      throw failure(e);
    }
    handle(a, stamp[0]);
    return a.value();
  }

  /** Submits a transition and handles its answer when it arrives. */
  <T> CompletableFuture<T> submit(Transition<Applied<T>> transition) {
    if (detached) {
      // Only a clean-up can arrive this late; retiring the owner already removed what it held.
      return CompletableFuture.failedFuture(detachedException());
    }
    long[] stamp = new long[1];
    CompletableFuture<Applied<T>> f;
    try {
      f = session.submit(stamped(transition, stamp));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(failure(e));
    }
    return f.handle(
        (a, e) -> {
          if (e != null) {
            throw failure(unwrap(e));
          }
          handle(a, stamp[0]);
          return a.value();
        });
  }

  /**
   * Sends an acquire for a ticket and routes the answer to it. A ticket that joins the queue is
   * registered as waiting inside the same transition, so no later grant can miss it, and an
   * immediate grant costs no registration at all.
   */
  void acquire(Ticket t, long queueWaitMillis, boolean async) {
    if (async && queueWaitMillis != 0 && handOffs.enabled() && handOffs.hold(t)) {
      // Held in this JVM until a pass or its turn to wait at the pool.
      BackendFailureException f = failure;
      if (f != null) {
        // The store failed while it was being held: failure() may have missed it.
        t.withdraw(f);
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
    Transition<Applied<AcquireResult>> decide =
        Transitions.acquire(owner, t.ref, t.weight, t.lifetime, queueWaitMillis);
    long[] stamp = new long[1];
    Transition<Applied<AcquireResult>> tx =
        (s, ctx) -> {
          Applied<AcquireResult> a = decide.apply(s, ctx);
          if (a.value() instanceof AcquireResult.Queued) {
            waiting.put(t.ref, t);
          }
          stamp[0] = stamps.incrementAndGet();
          return a;
        };
    CompletableFuture<Applied<AcquireResult>> f;
    synchronized (t) {
      if (t.beginSubmit()) {
        try {
          f = session.submit(tx);
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
      Applied<AcquireResult> a;
      try {
        a = f.join();
      } catch (CompletionException e) {
        waiting.remove(t.ref);
        t.refused();
        throw failure(unwrap(e));
      }
      handle(a, stamp[0]);
      route(t, a.value());
      return;
    }
    f.whenComplete(
        (a, e) -> {
          if (e != null) {
            waiting.remove(t.ref);
            t.dropped(failure(unwrap(e)));
            t.refused();
          } else {
            handle(a, stamp[0]);
            route(t, a.value());
          }
        });
  }

  private void route(Ticket t, AcquireResult r) {
    if (!(r instanceof AcquireResult.Queued)) {
      handOffs.left(t.ref);
    }
    if (r instanceof AcquireResult.Granted g) {
      t.acquiredNow(g.lease());
    } else if (r instanceof AcquireResult.Queued q) {
      t.queued(q.entryId());
    } else if (r instanceof AcquireResult.Overflow o) {
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
      t.withdraw(f);
    }
    sendHeld();
  }

  /**
   * Withdraws requests (or gives back their racing grants) in one transition, then passes on or
   * gives back the units that were passed to any of them in this JVM.
   */
  CompletableFuture<?> withdrawAsync(java.util.Collection<Ticket> tickets) {
    java.util.List<Long> refs = new java.util.ArrayList<>(tickets.size());
    for (Ticket t : tickets) {
      refs.add(t.ref);
    }
    CompletableFuture<?> done = submit(Transitions.withdraw(refs, owner));
    for (Ticket t : tickets) {
      if (t.heldPassedUnit()) {
        done = CompletableFuture.allOf(done, releaseAsync(t.lease()));
      }
    }
    return done;
  }

  /** Releases a lease, or passes its unit on, and waits for the store to apply a release. */
  void release(LeaseRecord lease) {
    if (!passed(lease)) {
      execute(Transitions.release(lease.id(), owner));
    }
  }

  /** Releases a lease, or passes its unit on, without waiting. */
  CompletableFuture<Boolean> releaseAsync(LeaseRecord lease) {
    if (passed(lease)) {
      return CompletableFuture.completedFuture(true);
    }
    return submit(Transitions.release(lease.id(), owner));
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
    submit(Transitions.withdraw(java.util.List.of(t.ref), owner));
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

  // ---- answers

  private void handle(Applied<?> a, long stamp) {
    boolean mine = false;
    for (LeaseRecord g : a.grants()) {
      if (g.owner().equals(owner)) {
        mine = true;
        handOffs.left(g.ownerRef());
        // No ticket: it was withdrawn, and its withdraw transition gives the grant back.
        Ticket t = waiting.remove(g.ownerRef());
        if (t != null) {
          t.granted(g);
        }
      }
    }
    for (WaiterRecord w : a.dropped()) {
      if (w.owner().equals(owner)) {
        mine = true;
        handOffs.left(w.ownerRef());
        Ticket t = waiting.remove(w.ownerRef());
        if (t != null) {
          t.dropped(
              new QueueTimeoutException(
                  name, Duration.ofMillis(w.queueDeadline() - w.enqueuedAt())));
        }
      }
    }
    rearm(a.nextDeadline(), stamp);
    if (mine) {
      sendHeld();
    }
  }

  /** Keeps one timer for the pool's next deadline, trusting only the newest answer. */
  private void rearm(long deadline, long stamp) {
    // Nothing armed and nothing to arm: the common case needs no lock. Racing answers can at
    // worst leave one spurious timer, whose tick then finds nothing to do.
    if (deadline == PoolState.NEVER && timerDeadline == PoolState.NEVER) {
      return;
    }
    synchronized (this) {
      rearmLocked(deadline, stamp);
    }
  }

  private void rearmLocked(long deadline, long stamp) {
    if (stamp < timerStamp || detached) {
      return;
    }
    timerStamp = stamp;
    if (deadline == timerDeadline && (timer != null || deadline == PoolState.NEVER)) {
      return;
    }
    if (timer != null) {
      timer.cancel();
      timer = null;
    }
    timerDeadline = deadline;
    if (deadline != PoolState.NEVER && failure == null) {
      timer = storeClock.scheduleAt(this::onTimer, deadline);
    }
  }

  private void onTimer() {
    synchronized (this) {
      timer = null;
      timerDeadline = PoolState.NEVER;
    }
    if (failure == null) {
      submit(Transitions.tick());
    }
  }

  private void onForeignChange() {
    if (failure != null || detached || waiting.isEmpty()) {
      return;
    }
    // Wakes that arrive while a sync waits to run are covered by it: it reads the state, and the
    // waiting requests, only when it runs. One that arrives after it started asks again.
    if (!syncPending.compareAndSet(false, true)) {
      return;
    }
    submit(
            (s, ctx) -> {
              syncPending.set(false);
              // Every ticket in the waiting map joined the queue in a committed transition,
              // including
              // those whose acquire answer this JVM has not handled yet, so all of them are asked.
              return Transitions.sync(owner, new HashSet<>(waiting.keySet())).apply(s, ctx);
            })
        .whenComplete(
            (r, e) -> {
              if (e != null) {
                syncPending.set(false);
              }
            });
  }

  // ---- failure

  /**
   * Turns a store error into the exception to report. A {@link SluiceException} other than a
   * backend failure is a refusal, reported as it is; anything else stops the pool.
   */
  private SluiceException failure(Throwable e) {
    if (e instanceof SluiceException refusal && !(e instanceof BackendFailureException)) {
      return refusal;
    }
    BackendFailureException f =
        e instanceof BackendFailureException b
            ? b
            : new BackendFailureException("store of pool '" + name + "' failed: " + e, e);
    boolean first;
    synchronized (this) {
      first = failure == null;
      if (first) {
        failure = f;
      }
    }
    if (first) {
      for (Ticket t : waiting.values()) {
        t.withdraw(f);
      }
      for (Ticket t : handOffs.heldRequests()) {
        t.withdraw(f);
      }
    }
    return f;
  }

  private LimiterClosedException detachedException() {
    return new LimiterClosedException("every limiter of pool '" + name + "' is closed");
  }

  private static Throwable unwrap(Throwable e) {
    return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
  }
}
