/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import dev.sluice.spi.ControlState.Operation;
import dev.sluice.spi.ControlState.OperationStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The operation records of managed execution: an operation is recorded when its first attempt is
 * queued or admitted and removed when it finishes; its owner's death leaves it {@linkplain
 * OperationStatus#UNCONFIRMED unconfirmed}, which keeps a drain from settling until an operator
 * acknowledges it for the running drain; a resume prunes the acknowledged records. A plain lease (a
 * {@code schedule}'s, an {@code acquire}'s) whose owner dies while the pool drains leaves an
 * unconfirmed record too, named {@code lease-<id>}: plain work is recorded only then, so it costs
 * nothing before, and a pool that is never drained collects no record of every crash.
 *
 * <p>The records live in the pool state's table ({@link PoolState#operations()}), keyed by id:
 * every admission of a first attempt adds one and every last report removes one, under the store's
 * lock, so each is one change of the table rather than a copy of every running execution's record.
 *
 * <p>Stateless.
 */
final class OperationRules {
  private OperationRules() {}

  /** After an acquire of an attempt of {@code operation} that was queued or admitted. */
  static void begun(PoolState s, String owner, String operation) {
    // One lookup: a record already there (a retry's, or another owner's) stays as it is.
    long generation = s.controlCore().drain().generation();
    s.addOperation(new Operation(operation, owner, generation, OperationStatus.RUNNING, ""));
  }

  /**
   * The owner's running record of {@code operation} removed: it finished.
   *
   * @return whether there was one
   */
  static boolean finished(PoolState s, String owner, String operation) {
    return s.removeOperationIf(operation, OperationRules::runsFor, owner);
  }

  private static boolean runsFor(Operation o, String owner) {
    return o.status() == OperationStatus.RUNNING && o.owner().equals(owner);
  }

  /** The id of the unconfirmed operation a dead owner's plain lease leaves. */
  static String implicitId(long leaseId) {
    return "lease-" + leaseId;
  }

  /**
   * A lease that admitted no attempt of a managed execution ({@code schedule}, {@code acquire}),
   * whose owner died while the pool drains: its work may or may not have taken effect, as an
   * execution's may, so the drain must not report clean; it leaves an unconfirmed operation of its
   * own, named after the lease.
   */
  static void implicitLost(PoolState s, LeaseRecord l) {
    long generation = s.controlCore().drain().generation();
    s.addOperation(
        new Operation(implicitId(l.id()), l.owner(), generation, OperationStatus.UNCONFIRMED, ""));
  }

  /** The running records of dead owners become unconfirmed. */
  static void ownersDied(PoolState s, Set<String> dead) {
    List<Operation> unconfirmed = new ArrayList<>();
    for (Operation o : s.operations()) {
      if (o.status() == OperationStatus.RUNNING && dead.contains(o.owner())) {
        unconfirmed.add(
            new Operation(o.id(), o.owner(), o.generation(), OperationStatus.UNCONFIRMED, ""));
      }
    }
    // Replacing a record keeps its place: the table stays in the order the operations began.
    for (Operation o : unconfirmed) {
      s.putOperation(o);
    }
  }

  /** A clean close: the owner's running records go, as its leases do. */
  static void retired(PoolState s, String owner) {
    removeIf(s, o -> o.status() == OperationStatus.RUNNING && o.owner().equals(owner));
  }

  /**
   * Acknowledges unconfirmed records for the running drain of the command's generation, all or
   * none: a stale generation, a drain already resumed, or an id that is not unconfirmed (or already
   * acknowledged) changes nothing. A record acknowledged after its drain was resumed would only
   * keep the next drain from reporting clean: resumes prune acknowledged records.
   */
  static AcknowledgeAnswer acknowledge(PoolState s, PoolCommand.Acknowledge a) {
    ControlState.Drain drain = s.controlCore().drain();
    if (a.generation() != drain.generation() || !drain.draining()) {
      return new AcknowledgeAnswer(true, List.of());
    }
    List<String> unknown = new ArrayList<>();
    for (String id : a.operationIds()) {
      Operation o = s.operation(id);
      OperationStatus st = o == null ? null : o.status();
      if (st != OperationStatus.UNCONFIRMED && st != OperationStatus.ACKNOWLEDGED) {
        unknown.add(id);
      }
    }
    if (!unknown.isEmpty()) {
      return new AcknowledgeAnswer(false, unknown);
    }
    for (String id : a.operationIds()) {
      Operation o = s.operation(id);
      if (o.status() == OperationStatus.UNCONFIRMED) {
        s.putOperation(
            new Operation(
                o.id(), o.owner(), o.generation(), OperationStatus.ACKNOWLEDGED, a.reason()));
      }
    }
    return new AcknowledgeAnswer(false, List.of());
  }

  /** The acknowledged records removed. */
  static void pruneAcknowledged(PoolState s) {
    removeIf(s, o -> o.status() == OperationStatus.ACKNOWLEDGED);
  }

  /** Records a drain still waits for: running and unacknowledged unconfirmed ones. */
  static int pending(PoolState s) {
    return pending(s.operations());
  }

  /** Records a drain still waits for, of a control state as a view or a store holds it. */
  static int pending(ControlState c) {
    return pending(c.operations());
  }

  private static int pending(Iterable<Operation> records) {
    int n = 0;
    for (Operation o : records) {
      if (o.status() != OperationStatus.ACKNOWLEDGED) {
        n++;
      }
    }
    return n;
  }

  private static void removeIf(PoolState s, Predicate<Operation> gone) {
    // Collected first: the table cannot change while its values are walked.
    List<String> ids = new ArrayList<>();
    for (Operation o : s.operations()) {
      if (gone.test(o)) {
        ids.add(o.id());
      }
    }
    for (String id : ids) {
      s.removeOperation(id);
    }
  }
}
