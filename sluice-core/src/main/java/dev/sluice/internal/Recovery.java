/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.TimeSource;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolOutcome;
import dev.sluice.spi.PoolSession;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * What this JVM's owner still has to take back from its store after a transient failure: queue
 * entries of requests the failure ended (their withdrawal failed too), leases whose release failed,
 * and operations whose end did not reach the store (a last attempt's report, or the end of an
 * execution). They go to the store before the owner's next command, in the same session and so in
 * order, and on a retry timer (10 ms, doubling to 5 s) while the pool is idle; until then they hold
 * capacity, never more than the cap, and a drain counts the operations as running.
 *
 * <p>Thread-safe.
 */
final class Recovery {
  private static final long FIRST_RETRY_MILLIS = 10;
  private static final long LAST_RETRY_MILLIS = 5_000;

  private final PoolSession session;
  private final String owner;
  private final TimeSource clock;
  private final Consumer<PoolOutcome<?>> outcomes;
  private final Set<Long> withdrawals = new HashSet<>();
  private final Map<Long, LeaseRecord> releases = new LinkedHashMap<>();
  private final Set<String> finishes = new LinkedHashSet<>();
  private volatile boolean pending;
  private TimeSource.Timer retry;
  private long retryMillis = FIRST_RETRY_MILLIS;
  private boolean stopped;

  /**
   * @param outcomes where the outcomes of the clean-up commands go (grants they made, deadlines)
   */
  Recovery(PoolSession session, TimeSource clock, Consumer<PoolOutcome<?>> outcomes) {
    this.session = session;
    this.owner = session.ownerId();
    this.clock = clock;
    this.outcomes = outcomes;
  }

  /** Requests whose withdrawal did not reach the store. */
  void withdrawLater(Collection<Long> ownerRefs) {
    synchronized (this) {
      withdrawals.addAll(ownerRefs);
      pending = true;
    }
    retryLater();
  }

  /** A lease whose release did not reach the store. */
  void releaseLater(LeaseRecord lease) {
    synchronized (this) {
      releases.put(lease.id(), lease);
      pending = true;
    }
    retryLater();
  }

  /** An operation whose end (a report that finished it, or a Finish) did not reach the store. */
  void finishLater(String operation) {
    synchronized (this) {
      finishes.add(operation);
      pending = true;
    }
    retryLater();
  }

  /** Whether anything waits to be taken back. */
  boolean pending() {
    return pending;
  }

  /**
   * Sends what waits to be taken back, without waiting for the answers; call it before sending a
   * command, which the store then applies after the clean-up.
   */
  void flush() {
    if (!pending) {
      return;
    }
    Set<Long> refs;
    List<LeaseRecord> leases;
    List<String> operations;
    synchronized (this) {
      if (stopped) {
        return;
      }
      refs = Set.copyOf(withdrawals);
      leases = new ArrayList<>(releases.values());
      operations = new ArrayList<>(finishes);
      withdrawals.clear();
      releases.clear();
      finishes.clear();
      pending = false;
    }
    // Ends before releases: whoever sees a lease come back sees its operation's end with it.
    for (String operation : operations) {
      send(new PoolCommand.Finish(owner, operation))
          .whenComplete(
              (o, e) -> {
                if (e != null && CommandRunner.transientFailure(e)) {
                  finishLater(operation);
                }
              });
    }
    if (!refs.isEmpty()) {
      send(new PoolCommand.Withdraw(owner, refs))
          .whenComplete(
              (o, e) -> {
                if (e != null) {
                  withdrawLater(refs);
                }
              });
    }
    for (LeaseRecord l : leases) {
      send(new PoolCommand.Release(owner, l.id()))
          .whenComplete(
              (o, e) -> {
                if (e != null) {
                  releaseLater(l);
                }
              });
    }
  }

  private <R> CompletableFuture<PoolOutcome<R>> send(PoolCommand<R> command) {
    CompletableFuture<PoolOutcome<R>> f;
    try {
      f = session.submit(command);
    } catch (RuntimeException e) {
      f = CompletableFuture.failedFuture(e);
    }
    return f.whenComplete(
        (o, e) -> {
          if (e == null) {
            succeeded();
            outcomes.accept(o);
          }
        });
  }

  private synchronized void succeeded() {
    retryMillis = FIRST_RETRY_MILLIS;
  }

  private void retryLater() {
    synchronized (this) {
      if (stopped || retry != null) {
        return;
      }
      long at = clock.wallMillis() + retryMillis;
      retryMillis = Math.min(retryMillis * 2, LAST_RETRY_MILLIS);
      retry = clock.scheduleAt(this::retryNow, at);
    }
  }

  private void retryNow() {
    synchronized (this) {
      retry = null;
    }
    flush();
  }

  /** Stops retrying, as when the owner closes. */
  synchronized void stop() {
    stopped = true;
    if (retry != null) {
      retry.cancel();
      retry = null;
    }
  }
}
