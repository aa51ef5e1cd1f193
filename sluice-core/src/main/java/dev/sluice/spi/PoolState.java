/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import dev.sluice.LimiterConfig;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.function.BiPredicate;

/**
 * Everything one pool shares: its configuration, live leases, the waiter queue, spacing, the
 * reservoir and its refill phase, the id and fencing counters, and the diagnostics trace.
 *
 * <p>The limiter's transitions read and change it; a store loads it, hands it to a transition under
 * its lock, and persists it when {@link #isDirty()} says it changed. Times are store time in epoch
 * milliseconds, with {@link #NEVER} for "no deadline".
 *
 * <p>Not thread-safe: a store gives one transition at a time exclusive use of it.
 */
public final class PoolState {
  /** The time of a deadline that never comes. */
  public static final long NEVER = Long.MAX_VALUE;

  private final LimiterConfig config;
  private final long createdAt;
  private final IdTable<LeaseRecord> leases = new IdTable<>(LeaseRecord::id);
  private final IdTable<WaiterRecord> waiters = new IdTable<>(WaiterRecord::id);
  private final Collection<LeaseRecord> leasesView = Collections.unmodifiableCollection(leases);
  private final Collection<WaiterRecord> waitersView = Collections.unmodifiableCollection(waiters);
  private final TraceLog trace;
  private long activeWeight;
  private long earliestExpiry = NEVER;
  private long nextAllowedAt;
  private boolean reservoirLimited;
  private long reservoir;
  private long nextRefreshAt;
  private long lastEntryId;
  private long lastFencingToken;

  /** The cooldown, breaker and drain; never with operation records, which are in the table. */
  private ControlState control = ControlState.NONE;

  /** The operation records by id, in the order the operations began. */
  private final NameTable<ControlState.Operation> operations =
      new NameTable<>(ControlState.Operation::id);

  private final Collection<ControlState.Operation> operationsView =
      Collections.unmodifiableCollection(operations);

  /** {@link #control()} with the operation records, built when asked for; null once stale. */
  private ControlState withRecords;

  private boolean dirty;

  private PoolState(LimiterConfig config, long createdAt, TraceLog trace) {
    this.config = Objects.requireNonNull(config, "config");
    this.createdAt = createdAt;
    this.trace = trace;
  }

  /**
   * Creates the state of a new pool.
   *
   * @param config the pool's configuration
   * @param createdAt store time of creation; the refill phase is anchored here
   * @param traceCapacity how many trace entries to keep, zero or more
   * @return the state
   */
  public static PoolState create(LimiterConfig config, long createdAt, int traceCapacity) {
    PoolState s = new PoolState(config, createdAt, new TraceLog(traceCapacity, 0));
    s.reservoirLimited = config.reservoirRaw() >= 0;
    s.reservoir = Math.max(0, config.reservoirRaw());
    s.nextRefreshAt =
        config.refreshIntervalMillisRaw() > 0
            ? createdAt + config.refreshIntervalMillisRaw()
            : NEVER;
    s.dirty = true;
    return s;
  }

  /**
   * Rebuilds a stored state; for stores that load it from disk or a server.
   *
   * @param config the stored configuration
   * @param createdAt the stored creation time
   * @param scalars the stored counters and deadlines
   * @param leases the live leases, in grant order
   * @param waiters the queue, head first
   * @param trace the stored trace, oldest first
   * @param traceCapacity how many trace entries to keep
   * @return the state, not dirty
   */
  public static PoolState restore(
      LimiterConfig config,
      long createdAt,
      Scalars scalars,
      Collection<LeaseRecord> leases,
      Collection<WaiterRecord> waiters,
      Collection<dev.sluice.TraceEvent> trace,
      int traceCapacity) {
    // The log numbers the entries as they are added, so it starts at the first one's sequence;
    // starting past the last one shifted every entry's sequence by the trace's length.
    long firstTraceSequence = trace.isEmpty() ? 0 : trace.iterator().next().sequence();
    PoolState s = new PoolState(config, createdAt, new TraceLog(traceCapacity, firstTraceSequence));
    for (dev.sluice.TraceEvent e : trace) {
      s.trace.add(e.kind(), e.leaseId(), e.owner(), e.activeWeight(), e.at().toEpochMilli());
    }
    s.nextAllowedAt = scalars.nextAllowedAt();
    s.reservoirLimited = scalars.reservoirLimited();
    s.reservoir = scalars.reservoir();
    s.nextRefreshAt = scalars.nextRefreshAt();
    s.lastEntryId = scalars.lastEntryId();
    s.lastFencingToken = scalars.lastFencingToken();
    for (LeaseRecord l : leases) {
      s.putLease(l);
    }
    for (WaiterRecord w : waiters) {
      s.addWaiter(w);
    }
    s.dirty = false;
    return s;
  }

  /** The pool's configuration. */
  public LimiterConfig config() {
    return config;
  }

  /** Store time of the pool's creation. */
  public long createdAt() {
    return createdAt;
  }

  /** The scalar fields, for persisting. */
  public Scalars scalars() {
    return new Scalars(
        nextAllowedAt, reservoirLimited, reservoir, nextRefreshAt, lastEntryId, lastFencingToken);
  }

  /** Whether a transition changed the state since the last {@link #markClean()}. */
  public boolean isDirty() {
    return dirty;
  }

  /** Records that the state was persisted. */
  public void markClean() {
    dirty = false;
  }

  // ---- leases

  /** Live leases in grant order; a read-only view. */
  public Collection<LeaseRecord> leases() {
    return leasesView;
  }

  /** Returns the lease with this id, or {@code null}. */
  public LeaseRecord lease(long id) {
    return leases.get(id);
  }

  /** Total weight of live leases. */
  public long activeWeight() {
    return activeWeight;
  }

  /** A lower bound of the earliest lease expiry; {@link #NEVER} when no lease can expire. */
  public long earliestExpiry() {
    return earliestExpiry;
  }

  /**
   * Adds a lease.
   *
   * @param lease the lease
   * @throws ArithmeticException if the total weight would overflow
   */
  public void putLease(LeaseRecord lease) {
    long total = Math.addExact(activeWeight, lease.weight());
    if (!leases.addIfAbsent(lease)) {
      throw new IllegalStateException("duplicate lease id " + lease.id());
    }
    activeWeight = total;
    earliestExpiry = Math.min(earliestExpiry, lease.expiresAt());
    dirty = true;
  }

  /** Removes and returns the lease with this id, or returns {@code null}. */
  public LeaseRecord removeLease(long id) {
    return removed(leases.remove(id));
  }

  /**
   * Removes and returns the lease with this id if {@code owner} holds it, or returns {@code null}
   * and changes nothing.
   *
   * @param id the lease's id
   * @param owner the owner that must hold it
   * @return the lease removed, or {@code null}
   */
  public LeaseRecord removeLease(long id, String owner) {
    return removed(leases.removeIf(id, PoolState::heldBy, owner));
  }

  private static boolean heldBy(LeaseRecord l, String owner) {
    return l.owner().equals(owner);
  }

  private LeaseRecord removed(LeaseRecord l) {
    if (l != null) {
      activeWeight -= l.weight();
      if (leases.isEmpty()) {
        earliestExpiry = NEVER;
      }
      dirty = true;
    }
    return l;
  }

  /**
   * Removes every lease that expired at {@code now}, calling {@code onExpired} for each, and
   * tightens {@link #earliestExpiry()}.
   *
   * @param now store time
   * @param onExpired told of each removed lease
   */
  public void removeExpiredLeases(long now, java.util.function.Consumer<LeaseRecord> onExpired) {
    long earliest = NEVER;
    for (Iterator<LeaseRecord> it = leases.iterator(); it.hasNext(); ) {
      LeaseRecord l = it.next();
      if (l.expiresAt() <= now) {
        it.remove();
        activeWeight -= l.weight();
        dirty = true;
        onExpired.accept(l);
      } else {
        earliest = Math.min(earliest, l.expiresAt());
      }
    }
    earliestExpiry = earliest;
  }

  // ---- waiters

  /** The queue, head first; a read-only view. */
  public Collection<WaiterRecord> waiters() {
    return waitersView;
  }

  /** Whether anyone waits. */
  public boolean hasWaiters() {
    return !waiters.isEmpty();
  }

  /** The head of the queue, or {@code null}. */
  public WaiterRecord headWaiter() {
    return waiters.first();
  }

  /** Returns the waiter with this id, or {@code null}. */
  public WaiterRecord waiter(long id) {
    return waiters.get(id);
  }

  /** Appends a waiter at the tail. */
  public void addWaiter(WaiterRecord waiter) {
    if (!waiters.addIfAbsent(waiter)) {
      throw new IllegalStateException("duplicate queue entry id " + waiter.id());
    }
    dirty = true;
  }

  /** Removes and returns the waiter with this id, or returns {@code null}. */
  public WaiterRecord removeWaiter(long id) {
    WaiterRecord w = waiters.remove(id);
    if (w != null) {
      dirty = true;
    }
    return w;
  }

  /** Iterates the queue head first; the iterator's {@code remove} removes a waiter. */
  public Iterator<WaiterRecord> waiterIterator() {
    Iterator<WaiterRecord> it = waiters.iterator();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public WaiterRecord next() {
        return it.next();
      }

      @Override
      public void remove() {
        it.remove();
        dirty = true;
      }
    };
  }

  // ---- scalars

  /** Store time before which no admission may happen (spacing). */
  public long nextAllowedAt() {
    return nextAllowedAt;
  }

  /** Sets the spacing deadline. */
  public void nextAllowedAt(long at) {
    if (at != nextAllowedAt) {
      nextAllowedAt = at;
      dirty = true;
    }
  }

  /** Whether the reservoir is finite. */
  public boolean reservoirLimited() {
    return reservoirLimited;
  }

  /** The token balance; meaningful only when {@link #reservoirLimited()}. May be negative. */
  public long reservoir() {
    return reservoir;
  }

  /** Sets a finite token balance. */
  public void reservoir(long balance) {
    if (!reservoirLimited || balance != reservoir) {
      reservoirLimited = true;
      reservoir = balance;
      dirty = true;
    }
  }

  /** Store time of the next refill, or {@link #NEVER}. */
  public long nextRefreshAt() {
    return nextRefreshAt;
  }

  /** Sets the next refill time. */
  public void nextRefreshAt(long at) {
    if (at != nextRefreshAt) {
      nextRefreshAt = at;
      dirty = true;
    }
  }

  /** Allocates the next queue entry or lease id. */
  public long nextEntryId() {
    dirty = true;
    return ++lastEntryId;
  }

  /** Allocates the next fencing token. */
  public long nextFencingToken() {
    dirty = true;
    return ++lastFencingToken;
  }

  /**
   * Makes the next fencing token greater than {@code floor}; a store calls it with its durable
   * reservation when it cannot be sure that every token it issued was persisted.
   */
  public void raiseFencingFloor(long floor) {
    if (floor > lastFencingToken) {
      lastFencingToken = floor;
      dirty = true;
    }
  }

  /** The last fencing token issued. */
  public long lastFencingToken() {
    return lastFencingToken;
  }

  // ---- control state of managed execution

  /**
   * The cooldown, breaker and drain state with the operation records; {@link ControlState#NONE}
   * until one is used. With records, it is built when first asked for after a change: stores and
   * views ask for it, the algorithm works on the parts.
   */
  public ControlState control() {
    if (operations.isEmpty()) {
      return control;
    }
    ControlState c = withRecords;
    if (c == null) {
      c = control.withOperations(List.copyOf(operations));
      withRecords = c;
    }
    return c;
  }

  /** Replaces the control state, its operation records included. */
  public void control(ControlState next) {
    Objects.requireNonNull(next, "control");
    controlCore(next.operations().isEmpty() ? next : next.withOperations(List.of()));
    if (!sameRecords(next.operations())) {
      operations.clear();
      for (ControlState.Operation o : next.operations()) {
        operations.put(o);
      }
      recordsChanged();
    }
  }

  /** The control state without its operation records. */
  ControlState controlCore() {
    return control;
  }

  /** Replaces the cooldown, breaker and drain; {@code next} holds no operation records. */
  void controlCore(ControlState next) {
    // The same object is the common case (a report that changed nothing): no comparison then.
    if (next != control && !control.equals(next)) {
      control = next;
      withRecords = null;
      dirty = true;
    }
  }

  /** The operation records, in the order the operations began; read-only. */
  Collection<ControlState.Operation> operations() {
    return operationsView;
  }

  /** The record of operation {@code id}, or {@code null}. */
  ControlState.Operation operation(String id) {
    return operations.get(id);
  }

  /** Adds a record unless one of its id is there; returns whether it was added. */
  boolean addOperation(ControlState.Operation o) {
    if (!operations.addIfAbsent(o)) {
      return false;
    }
    recordsChanged();
    return true;
  }

  /** Adds a record, or replaces the one of its id in its place. */
  void putOperation(ControlState.Operation o) {
    operations.put(o);
    recordsChanged();
  }

  /** Removes the record of {@code id}, if any. */
  void removeOperation(String id) {
    if (operations.remove(id) != null) {
      recordsChanged();
    }
  }

  /**
   * Removes the record of {@code id} if {@code gone} holds for it and {@code argument}; returns
   * whether it did.
   */
  <A> boolean removeOperationIf(
      String id, BiPredicate<ControlState.Operation, A> gone, A argument) {
    if (operations.removeIf(id, gone, argument) == null) {
      return false;
    }
    recordsChanged();
    return true;
  }

  private void recordsChanged() {
    withRecords = null;
    dirty = true;
  }

  private boolean sameRecords(List<ControlState.Operation> records) {
    if (records.size() != operations.size()) {
      return false;
    }
    Iterator<ControlState.Operation> mine = operations.iterator();
    for (ControlState.Operation o : records) {
      if (!o.equals(mine.next())) {
        return false;
      }
    }
    return true;
  }

  // ---- trace

  /** The diagnostics trace. */
  public TraceLog trace() {
    return trace;
  }

  /**
   * The counters and deadlines that are not collections.
   *
   * @param nextAllowedAt spacing deadline
   * @param reservoirLimited whether the reservoir is finite
   * @param reservoir the balance when finite
   * @param nextRefreshAt next refill or {@link #NEVER}
   * @param lastEntryId the last id issued
   * @param lastFencingToken the last fencing token issued
   */
  public record Scalars(
      long nextAllowedAt,
      boolean reservoirLimited,
      long reservoir,
      long nextRefreshAt,
      long lastEntryId,
      long lastFencingToken) {}
}
