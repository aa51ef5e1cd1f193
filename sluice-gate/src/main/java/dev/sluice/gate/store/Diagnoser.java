/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.store;

import dev.sluice.gate.Diagnosis;
import dev.sluice.gate.PermitPhase;
import dev.sluice.gate.PoolStatus;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.internal.GateState;
import dev.sluice.gate.internal.ProcTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Explains a gate: why each queue's head waits, which holders hold for long, and which holders'
 * liveness cannot be judged from here. Reads only; dead holders were already reclaimed by the
 * transaction that runs it.
 *
 * <p>Thread-safe (stateless).
 */
public final class Diagnoser {
  private Diagnoser() {}

  /** The findings for these pools of {@code state} at {@code now}. */
  public static Diagnosis diagnose(List<PoolStatus> pools, GateState state, long now) {
    Set<String> orphaned =
        state.orphanedGroups().stream().map(Ticket::requestId).collect(Collectors.toSet());
    long longHold = state.settings().longHold().toMillis();
    List<Diagnosis.Finding> out = new ArrayList<>();
    for (PoolStatus p : pools) {
      if (!p.queued().isEmpty()) {
        Ticket head = p.queued().get(0);
        int free = Math.max(0, p.capacity() - p.used());
        out.add(
            new Diagnosis.Finding(
                p.name(),
                head.requestId(),
                "head_waits",
                "weight "
                    + head.weight()
                    + " waits: "
                    + free
                    + " of "
                    + p.capacity()
                    + " free; held by "
                    + describe(p.holders())
                    + (p.offers().isEmpty() ? "" : "; offered to " + describe(p.offers()))));
      }
      for (Ticket t : p.holders()) {
        holder(p.name(), t, now, longHold, orphaned.contains(t.requestId()), out);
      }
    }
    return new Diagnosis(out);
  }

  private static void holder(
      String pool,
      Ticket t,
      long now,
      long longHold,
      boolean orphaned,
      List<Diagnosis.Finding> out) {
    long held = now - t.since().toEpochMilli();
    if (held > longHold) {
      out.add(
          new Diagnosis.Finding(
              pool,
              t.requestId(),
              "long_hold",
              "has held for " + Duration.ofMillis(held).toSeconds() + " s"));
    }
    if (t.phase() == PermitPhase.RUNNING_TRACKED) {
      ProcTable.Liveness alive = ProcTable.liveness(t.process());
      if (alive == ProcTable.Liveness.UNVERIFIABLE) {
        out.add(
            new Diagnosis.Finding(
                pool,
                t.requestId(),
                "holder_unverifiable",
                "pgid "
                    + t.process().pgid()
                    + " is in pid namespace "
                    + t.process().pidNamespace()
                    + ", not ours; counted as alive"));
      } else if (alive == ProcTable.Liveness.DEAD) {
        out.add(
            new Diagnosis.Finding(
                pool,
                t.requestId(),
                "holder_dead",
                "pgid "
                    + t.process().pgid()
                    + " has ended; released once its"
                    + " launcher is gone"));
      } else if (orphaned) {
        out.add(
            new Diagnosis.Finding(
                pool,
                t.requestId(),
                "launcher_gone",
                "its launcher exited; pgid "
                    + t.process().pgid()
                    + " still runs and keeps the permit"));
      }
    } else if (t.phase() == PermitPhase.RUNNING_UNTRACKED && t.leaseDeadline() != null) {
      out.add(
          new Diagnosis.Finding(
              pool,
              t.requestId(),
              "lease_due",
              "untracked; lapses in "
                  + Math.max(0, (t.leaseDeadline().toEpochMilli() - now) / 1000)
                  + " s without a heartbeat from "
                  + t.agentId()));
    } else if (t.phase() == PermitPhase.CLAIMED && t.startDeadline() != null) {
      out.add(
          new Diagnosis.Finding(
              pool,
              t.requestId(),
              "not_started",
              "claimed, not started; reclaimed in "
                  + Math.max(0, (t.startDeadline().toEpochMilli() - now) / 1000)
                  + " s"));
    }
  }

  private static String describe(List<Ticket> tickets) {
    if (tickets.isEmpty()) {
      return "nobody";
    }
    return tickets.stream()
        .map(
            t ->
                t.requestId()
                    + " ("
                    + t.agentId()
                    + (t.label().isEmpty() ? "" : ", " + t.label())
                    + ", weight "
                    + t.weight()
                    + ")")
        .collect(Collectors.joining(", "));
  }
}
