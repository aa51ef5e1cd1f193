/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.Durations;
import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.GateService;
import dev.sluice.gate.PoolStatus;
import dev.sluice.gate.Ticket;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What a waiting {@code sluice run} leaves in a log when stderr is not a terminal (CI): one line
 * when it starts waiting (pool, queue position, who holds the pool, by label) and one when it gets
 * its slot (after how long). A run that is granted at once prints nothing. Reading the holders is
 * cosmetic: if it fails, or if no one else holds the pool by the time it is read, they are left
 * out.
 *
 * <p>Not thread-safe: called on the thread that waits, as the gate reports progress.
 */
final class WaitLog {
  private static final int MAX_HOLDERS = 3;

  private final PrintWriter err;
  private final GateService gate;
  private final String pool;
  private final boolean enabled;
  private long waitingSince;

  WaitLog(PrintWriter err, GateService gate, String pool, boolean enabled) {
    this.err = err;
    this.gate = gate;
    this.pool = pool;
    this.enabled = enabled;
  }

  /** A progress report from the gate. */
  void update(AcquireOutcome outcome) {
    if (!enabled) {
      return;
    }
    if (waitingSince == 0 && outcome instanceof AcquireOutcome.Queued q) {
      waitingSince = System.nanoTime();
      err.println(
          "sluice: waiting for pool "
              + pool
              + ": queue position "
              + q.ticket().position()
              + holders(q.ticket().requestId()));
      err.flush();
    } else if (waitingSince != 0 && outcome instanceof AcquireOutcome.Granted) {
      Duration waited = Duration.ofNanos(System.nanoTime() - waitingSince);
      err.println("sluice: got a slot in pool " + pool + " after " + Durations.human(waited));
      err.flush();
    }
  }

  /**
   * Who holds the pool, leaving out this run's own request: the status is read after the queued
   * report, and by then the slot may already be on its way to this run. With no one else holding or
   * offered anything there is no one to name.
   */
  private String holders(String ownRequestId) {
    try {
      for (PoolStatus p : gate.status()) {
        if (p.name().equals(pool)) {
          List<Ticket> others =
              p.holders().stream().filter(t -> !t.requestId().equals(ownRequestId)).toList();
          boolean othersOffered =
              p.offers().stream().anyMatch(t -> !t.requestId().equals(ownRequestId));
          if (others.isEmpty() && !othersOffered) {
            return "";
          }
          int ownWeight =
              Stream.concat(p.holders().stream(), p.offers().stream())
                  .filter(t -> t.requestId().equals(ownRequestId))
                  .mapToInt(Ticket::weight)
                  .sum();
          String names =
              others.stream()
                  .limit(MAX_HOLDERS)
                  .map(WaitLog::name)
                  .collect(Collectors.joining(", "));
          String more =
              others.size() > MAX_HOLDERS ? " and " + (others.size() - MAX_HOLDERS) + " more" : "";
          return String.format(
              ", held by %s%s (%d/%d used)",
              names.isEmpty() ? "offers" : names, more, p.used() - ownWeight, p.capacity());
        }
      }
    } catch (RuntimeException e) {
      // Cosmetic only; the wait itself reports real failures.
    }
    return "";
  }

  /** A holder as people know it: its label, else its request id. */
  private static String name(Ticket t) {
    return t.label().isEmpty() ? t.requestId() : "\"" + t.label() + "\" (" + t.requestId() + ")";
  }
}
