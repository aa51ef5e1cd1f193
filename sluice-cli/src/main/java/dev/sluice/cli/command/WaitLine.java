/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.Durations;
import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.GateService;
import dev.sluice.gate.PoolStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The one live line {@code sluice run} keeps on stderr while it waits on a terminal: pool, queue
 * position, holders and time waited, redrawn in place with {@code \r} on every progress report and
 * once a second. It is cosmetic: a failure to read the pool only leaves the holders out.
 *
 * <p>Thread-safe: {@link #update} may be called from any thread; all drawing happens on one daemon
 * timer thread, which also reads the pool's status (one short gate transaction) after each progress
 * report. {@link #close()} blocks until that thread has stopped, then erases the line.
 */
final class WaitLine implements AutoCloseable {
  private static final String ERASE = "\r\033[K";
  private static final int WIDTH = 79;

  private final PrintWriter err;
  private final GateService gate;
  private final String pool;
  private final long startNanos = System.nanoTime();
  private final ScheduledExecutorService timer;
  private final Thread eraseOnExit;
  private volatile AcquireOutcome latest;
  private volatile String holders = "";
  private boolean drawn;

  private WaitLine(PrintWriter err, GateService gate, String pool, boolean enabled) {
    this.err = err;
    this.gate = gate;
    this.pool = pool;
    if (!enabled) {
      timer = null;
      eraseOnExit = null;
      return;
    }
    timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "sluice-wait-line");
              t.setDaemon(true);
              return t;
            });
    timer.scheduleAtFixedRate(this::draw, 1, 1, TimeUnit.SECONDS);
    // Ctrl-C while waiting ends the JVM: leave the terminal with a clean line behind.
    eraseOnExit = new Thread(this::erase, "sluice-wait-line-erase");
    Runtime.getRuntime().addShutdownHook(eraseOnExit);
  }

  /**
   * Starts the line if {@code enabled} (on a terminal, without {@code --json}); else every method
   * does nothing.
   */
  static WaitLine open(PrintWriter err, GateService gate, String pool, boolean enabled) {
    return new WaitLine(err, gate, pool, enabled);
  }

  /** A progress report from the gate: redraw now, with fresh holders. */
  void update(AcquireOutcome outcome) {
    latest = outcome;
    if (timer != null && !(outcome instanceof AcquireOutcome.Granted)) {
      timer.execute(
          () -> {
            refreshHolders();
            draw();
          });
    }
  }

  private void refreshHolders() {
    try {
      for (PoolStatus p : gate.status()) {
        if (p.name().equals(pool)) {
          holders =
              String.format(
                  ", holders %d (%d/%d used)", p.holders().size(), p.used(), p.capacity());
        }
      }
    } catch (RuntimeException e) {
      // Cosmetic only; the wait itself reports real failures.
    }
  }

  private synchronized void draw() {
    AcquireOutcome o = latest;
    String state;
    if (o instanceof AcquireOutcome.Queued q) {
      state = ": queue position " + q.ticket().position();
    } else if (o instanceof AcquireOutcome.Offered) {
      state = ": offered, claiming";
    } else {
      state = "";
    }
    Duration waited = Duration.ofNanos(System.nanoTime() - startNanos);
    String text =
        "sluice: waiting for pool " + pool + state + holders + ", " + Durations.human(waited);
    if (text.length() > WIDTH) {
      // A wrapped line cannot be redrawn with \r.
      text = text.substring(0, WIDTH - 1) + "…";
    }
    err.print(ERASE + text);
    err.flush();
    drawn = true;
  }

  private synchronized void erase() {
    if (drawn) {
      err.print(ERASE);
      err.flush();
      drawn = false;
    }
  }

  /** Stops the timer and erases the line. */
  @Override
  public void close() {
    if (timer == null) {
      return;
    }
    timer.shutdownNow();
    try {
      timer.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    erase();
    try {
      Runtime.getRuntime().removeShutdownHook(eraseOnExit);
    } catch (IllegalStateException e) {
      // Already shutting down: the hook runs anyway and finds nothing to erase.
    }
  }
}
