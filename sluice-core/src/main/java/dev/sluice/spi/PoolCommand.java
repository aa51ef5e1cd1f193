/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import dev.sluice.PoolSnapshot;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One thing an owner asks of its pool, as data. A store hands each command to {@link
 * PoolAlgorithm#apply} under its lock or transaction; it never interprets one itself. Because a
 * command is a plain value, a store that cannot run Java beside its data can ship it elsewhere, and
 * a test can record and replay a sequence of them.
 *
 * <p>Every command names its issuer, the owner whose session sends it: an outcome concerns the
 * <em>other</em> owners whose requests it granted or ended.
 *
 * @param <R> the type of the command's own answer, {@link PoolOutcome#value()}
 */
public sealed interface PoolCommand<R> {
  /** The owner that sends the command. */
  String owner();

  /**
   * Admits a request at once if nobody waits and it fits; otherwise queues it, unless it may not
   * wait.
   *
   * @param owner the issuer, who will own the lease or queue entry
   * @param ownerRef the issuer's own reference to the request, echoed in its lease or end
   * @param weight concurrency units and tokens it needs, at least 1
   * @param leaseLifetime lifetime of its lease in milliseconds, or {@code -1} for none
   * @param queueWaitMillis how long it may wait: {@code 0} refuses rather than queues, {@code -1}
   *     waits without a deadline
   * @param failFast refuse with {@link AcquireAnswer.CircuitOpen} rather than wait while the
   *     circuit is open or its probe runs
   * @param continuing the request continues work accepted before a drain began (a retry), which a
   *     draining pool still admits; new work is refused with {@link AcquireAnswer.Draining}
   * @param operation the managed execution the request is an attempt of, recorded as running once
   *     the request is queued or admitted (see {@link ControlState.Operation}); empty for none
   */
  record Acquire(
      String owner,
      long ownerRef,
      long weight,
      long leaseLifetime,
      long queueWaitMillis,
      boolean failFast,
      boolean continuing,
      String operation)
      implements PoolCommand<AcquireAnswer> {
    /** Checks the components. */
    public Acquire {
      Objects.requireNonNull(owner, "owner");
      // Hashed here, once, so the string keeps its hash: the pool looks the operation up by it
      // under the store's lock, where every caller of the pool waits for the work done.
      Objects.requireNonNull(operation, "operation").hashCode();
    }

    /**
     * A request that is no attempt of a managed execution.
     *
     * @param owner the issuer
     * @param ownerRef the issuer's reference
     * @param weight the weight
     * @param leaseLifetime the lease lifetime, {@code -1} for none
     * @param queueWaitMillis how long it may wait
     * @param failFast refuse while the circuit is open
     * @param continuing continues work accepted before a drain
     */
    public Acquire(
        String owner,
        long ownerRef,
        long weight,
        long leaseLifetime,
        long queueWaitMillis,
        boolean failFast,
        boolean continuing) {
      this(owner, ownerRef, weight, leaseLifetime, queueWaitMillis, failFast, continuing, "");
    }

    /**
     * New work that waits while the circuit is open.
     *
     * @param owner the issuer
     * @param ownerRef the issuer's reference
     * @param weight the weight
     * @param leaseLifetime the lease lifetime, {@code -1} for none
     * @param queueWaitMillis how long it may wait
     */
    public Acquire(
        String owner, long ownerRef, long weight, long leaseLifetime, long queueWaitMillis) {
      this(owner, ownerRef, weight, leaseLifetime, queueWaitMillis, false, false, "");
    }
  }

  /**
   * Releases a lease if it is still the issuer's; a late or repeated release changes nothing.
   * Answers whether it released.
   *
   * @param owner the issuer
   * @param leaseId the lease
   */
  record Release(String owner, long leaseId) implements PoolCommand<Boolean> {
    /** Checks the components. */
    public Release {
      Objects.requireNonNull(owner, "owner");
    }
  }

  /**
   * Takes back requests of the issuer that never started: each leaves the queue, or gives back the
   * grant it got meanwhile with what that grant spent. Answers how many entries were removed.
   *
   * @param owner the issuer
   * @param ownerRefs the requests, by the issuer's references
   */
  record Withdraw(String owner, Set<Long> ownerRefs) implements PoolCommand<Integer> {
    /** Checks the components and copies the set. */
    public Withdraw {
      Objects.requireNonNull(owner, "owner");
      ownerRefs = Set.copyOf(ownerRefs);
    }
  }

  /**
   * Applies whatever time has made due: expiries, refills, queue deadlines, grants.
   *
   * @param owner the issuer
   */
  record Tick(String owner) implements PoolCommand<Void> {
    /** Checks the components. */
    public Tick {
      Objects.requireNonNull(owner, "owner");
    }
  }

  /**
   * A tick that also reports, after another owner changed the pool, what became of the issuer's
   * queued requests: those granted meanwhile come back as {@linkplain PoolOutcome#grants() grants},
   * those gone without a lease as {@linkplain PoolOutcome#ended() ended}, with the reason.
   *
   * @param owner the issuer
   * @param pending the issuer's requests it knows to be queued
   */
  record Sync(String owner, List<Pending> pending) implements PoolCommand<Void> {
    /** Checks the components and copies the list. */
    public Sync {
      Objects.requireNonNull(owner, "owner");
      pending = List.copyOf(pending);
    }

    /**
     * A request its owner knows the store queued.
     *
     * @param ownerRef the owner's reference
     * @param entryId the queue entry the store answered with
     * @param queueDeadline the queue deadline the store answered with, or {@link PoolState#NEVER}
     */
    public record Pending(long ownerRef, long entryId, long queueDeadline) {}
  }

  /**
   * Reads the reservoir's balance after any due refill; empty for an unlimited one.
   *
   * @param owner the issuer
   */
  record ReadReservoir(String owner) implements PoolCommand<OptionalLong> {
    /** Checks the components. */
    public ReadReservoir {
      Objects.requireNonNull(owner, "owner");
    }
  }

  /**
   * Adds {@code delta} (negative allowed) to the balance, an unlimited one starting from zero.
   * Answers the new balance, or empty if it would overflow, in which case nothing changes.
   *
   * @param owner the issuer
   * @param delta the change
   */
  record IncrementReservoir(String owner, long delta) implements PoolCommand<OptionalLong> {
    /** Checks the components. */
    public IncrementReservoir {
      Objects.requireNonNull(owner, "owner");
    }
  }

  /**
   * Takes a consistent snapshot of the pool.
   *
   * @param owner the issuer
   */
  record Inspect(String owner) implements PoolCommand<PoolSnapshot> {
    /** Checks the components. */
    public Inspect {
      Objects.requireNonNull(owner, "owner");
    }
  }

  /**
   * Removes everything the issuer still holds or waits for: its session is closing.
   *
   * @param owner the issuer
   */
  record Retire(String owner) implements PoolCommand<Void> {
    /** Checks the components. */
    public Retire {
      Objects.requireNonNull(owner, "owner");
    }
  }

  /**
   * Reports how the attempt that held a lease ended, and releases the lease, in one transition: so
   * each attempt is evidence at most once, and a lease that expired or was reclaimed (lost work) is
   * never evidence. The report is fenced by the lease's fencing token: an attempt admitted before
   * the current cooldown epoch cannot escalate or reset it, one admitted before the breaker's last
   * opening or closing is no evidence, and a replaced probe's report is refused.
   *
   * @param owner the issuer, who holds the lease
   * @param leaseId the lease
   * @param outcome how the attempt ended
   * @param retryAfterMillis the provider's retry-after, a floor of the cooldown even beyond its
   *     cap; {@code 0} for none
   * @param operation the operation this attempt was the last of, whose record the report removes;
   *     empty for none
   */
  record Report(
      String owner, long leaseId, ReportedOutcome outcome, long retryAfterMillis, String operation)
      implements PoolCommand<ReportAnswer> {
    /**
     * A report that finishes no operation.
     *
     * @param owner the issuer
     * @param leaseId the lease
     * @param outcome how the attempt ended
     * @param retryAfterMillis the provider's retry-after, {@code 0} for none
     */
    public Report(String owner, long leaseId, ReportedOutcome outcome, long retryAfterMillis) {
      this(owner, leaseId, outcome, retryAfterMillis, "");
    }

    /** Checks the components. */
    public Report {
      Objects.requireNonNull(owner, "owner");
      Objects.requireNonNull(outcome, "outcome");
      // Hashed here rather than under the store's lock; see Acquire.
      Objects.requireNonNull(operation, "operation").hashCode();
      if (retryAfterMillis < 0) {
        throw new IllegalArgumentException(
            "retryAfterMillis must not be negative (allowed 0.."
                + Long.MAX_VALUE
                + "), was "
                + retryAfterMillis);
      }
      if (outcome == ReportedOutcome.SUCCESS && retryAfterMillis != 0) {
        throw new IllegalArgumentException(
            "a success cannot carry a retry-after, was " + retryAfterMillis + " ms");
      }
    }
  }

  /**
   * Starts a pool-wide drain with a new generation, or answers the running one: new work is
   * refused, work accepted before goes on. Kept in the pool's state when every owner closed.
   *
   * @param owner the issuer
   */
  record Drain(String owner) implements PoolCommand<ControlView> {
    /** Checks the components. */
    public Drain {
      Objects.requireNonNull(owner, "owner");
    }
  }

  /**
   * Ends the drain of {@code generation}; answers false, changing nothing, for a stale generation
   * (not the pool's latest), so a caller cannot end a drain someone else started since.
   *
   * @param owner the issuer
   * @param generation the drain to end, at least 1
   */
  record Resume(String owner, long generation) implements PoolCommand<Boolean> {
    /** Checks the components. */
    public Resume {
      Objects.requireNonNull(owner, "owner");
      if (generation < 1) {
        throw new IllegalArgumentException(
            "generation must be at least 1 (allowed 1.." + Long.MAX_VALUE + "), was " + generation);
      }
    }
  }

  /**
   * Reads the cooldown, breaker and drain, and what a drain waits for.
   *
   * @param owner the issuer
   */
  record ReadControl(String owner) implements PoolCommand<ControlView> {
    /** Checks the components. */
    public ReadControl {
      Objects.requireNonNull(owner, "owner");
    }
  }

  /**
   * Ends the issuer's running record of an operation that finished without a report doing so (it
   * was refused, timed out or stopped between attempts). Answers whether a record was removed.
   *
   * @param owner the issuer
   * @param operation the operation id
   */
  record Finish(String owner, String operation) implements PoolCommand<Boolean> {
    /** Checks the components. */
    public Finish {
      Objects.requireNonNull(owner, "owner");
      Objects.requireNonNull(operation, "operation");
    }
  }

  /**
   * Acknowledges operations left unconfirmed by dead owners, for the drain of {@code generation},
   * all or none: a stale generation, or an id that is not an unconfirmed (or acknowledged)
   * operation, changes nothing.
   *
   * @param owner the issuer
   * @param generation the latest drain's generation, at least 1
   * @param operationIds the operations, at least one
   * @param reason why their uncertainty is accepted, not blank
   */
  record Acknowledge(String owner, long generation, List<String> operationIds, String reason)
      implements PoolCommand<AcknowledgeAnswer> {
    /** Checks the components and copies the ids. */
    public Acknowledge {
      Objects.requireNonNull(owner, "owner");
      Objects.requireNonNull(reason, "reason");
      operationIds = List.copyOf(operationIds);
      if (generation < 1) {
        throw new IllegalArgumentException(
            "generation must be at least 1 (allowed 1.." + Long.MAX_VALUE + "), was " + generation);
      }
      if (operationIds.isEmpty()) {
        throw new IllegalArgumentException("operationIds must name at least one operation, was []");
      }
      if (reason.isBlank()) {
        throw new IllegalArgumentException(
            "reason must not be blank (say why the work may be taken as lost), was '"
                + reason
                + "'");
      }
    }
  }
}
