/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import dev.sluice.spi.ControlState.Operation;
import dev.sluice.spi.ControlState.OperationStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The operation records of managed execution as pure functions: an operation is recorded when its
 * first attempt is queued or admitted and removed when it finishes; its owner's death leaves it
 * {@linkplain OperationStatus#UNCONFIRMED unconfirmed}, which keeps a drain from settling until an
 * operator acknowledges it for the running drain; a resume prunes the acknowledged records.
 *
 * <p>Stateless.
 */
final class OperationRules {
  private OperationRules() {}

  /** After an acquire of an attempt of {@code operation} that was queued or admitted. */
  static ControlState begun(ControlState c, String owner, String operation) {
    List<Operation> ops = c.operations();
    // By index: an iterator is an object per record per command, and this runs on every admission.
    for (int i = 0, n = ops.size(); i < n; i++) {
      if (sameId(ops.get(i).id(), operation)) {
        return c;
      }
    }
    // Straight into an immutable list, which the state keeps as it is: this runs for every
    // execution, most often on a pool that runs no other.
    Operation begun =
        new Operation(operation, owner, c.drain().generation(), OperationStatus.RUNNING, "");
    if (c.operations().isEmpty()) {
      return c.withOperations(List.of(begun));
    }
    int n = c.operations().size();
    Operation[] next = c.operations().toArray(new Operation[n + 1]);
    next[n] = begun;
    return c.withOperations(List.of(next));
  }

  /** The owner's running record of {@code operation} removed: it finished. */
  static ControlState finished(ControlState c, String owner, String operation) {
    List<Operation> ops = c.operations();
    int n = ops.size();
    for (int i = 0; i < n; i++) {
      Operation o = ops.get(i);
      if (sameId(o.id(), operation)
          && o.owner().equals(owner)
          && o.status() == OperationStatus.RUNNING) {
        if (n == 1) {
          return c.withOperations(List.of());
        }
        Operation[] next = new Operation[n - 1];
        for (int j = 0, k = 0; j < n; j++) {
          if (j != i) {
            next[k++] = ops.get(j);
          }
        }
        return c.withOperations(List.of(next));
      }
    }
    return c;
  }

  /**
   * Whether two operation ids are equal. Every admission and every last report looks for its
   * operation among the running ones, under the pool's lock: the same string object (a report from
   * the JVM that began the operation) or a differing cached hash answers at once, and only ids that
   * agree on both are compared character by character.
   */
  private static boolean sameId(String a, String b) {
    return a == b || (a.hashCode() == b.hashCode() && a.equals(b));
  }

  /** The running records of dead owners become unconfirmed. */
  static ControlState ownersDied(ControlState c, Set<String> dead) {
    if (c.operations().isEmpty()) {
      return c;
    }
    List<Operation> next = new ArrayList<>(c.operations().size());
    boolean changed = false;
    for (Operation o : c.operations()) {
      if (o.status() == OperationStatus.RUNNING && dead.contains(o.owner())) {
        next.add(new Operation(o.id(), o.owner(), o.generation(), OperationStatus.UNCONFIRMED, ""));
        changed = true;
      } else {
        next.add(o);
      }
    }
    return changed ? c.withOperations(next) : c;
  }

  /** A clean close: the owner's running records go, as its leases do. */
  static ControlState retired(ControlState c, String owner) {
    if (c.operations().isEmpty()) {
      return c;
    }
    List<Operation> next = new ArrayList<>(c.operations().size());
    for (Operation o : c.operations()) {
      if (!(o.status() == OperationStatus.RUNNING && o.owner().equals(owner))) {
        next.add(o);
      }
    }
    return next.size() == c.operations().size() ? c : c.withOperations(next);
  }

  /**
   * Acknowledges unconfirmed records for the drain of the command's generation, all or none: a
   * stale generation or an id that is not unconfirmed (or already acknowledged) changes nothing.
   */
  static AcknowledgeAnswer acknowledge(PoolState s, PoolCommand.Acknowledge a) {
    ControlState c = s.control();
    if (a.generation() != c.drain().generation()) {
      return new AcknowledgeAnswer(true, List.of());
    }
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < c.operations().size(); i++) {
      index.put(c.operations().get(i).id(), i);
    }
    List<String> unknown = new ArrayList<>();
    List<Operation> next = new ArrayList<>(c.operations());
    for (String id : a.operationIds()) {
      Integer i = index.get(id);
      OperationStatus st = i == null ? null : next.get(i).status();
      if (st == OperationStatus.UNCONFIRMED) {
        Operation o = next.get(i);
        next.set(
            i,
            new Operation(
                o.id(), o.owner(), o.generation(), OperationStatus.ACKNOWLEDGED, a.reason()));
      } else if (st != OperationStatus.ACKNOWLEDGED) {
        unknown.add(id);
      }
    }
    if (!unknown.isEmpty()) {
      return new AcknowledgeAnswer(false, unknown);
    }
    s.control(c.withOperations(next));
    return new AcknowledgeAnswer(false, List.of());
  }

  /** The acknowledged records removed. */
  static ControlState pruneAcknowledged(ControlState c) {
    List<Operation> next = new ArrayList<>(c.operations().size());
    for (Operation o : c.operations()) {
      if (o.status() != OperationStatus.ACKNOWLEDGED) {
        next.add(o);
      }
    }
    return next.size() == c.operations().size() ? c : c.withOperations(next);
  }

  /** Records a drain still waits for: running and unacknowledged unconfirmed ones. */
  static int pending(ControlState c) {
    int n = 0;
    for (Operation o : c.operations()) {
      if (o.status() != OperationStatus.ACKNOWLEDGED) {
        n++;
      }
    }
    return n;
  }
}
