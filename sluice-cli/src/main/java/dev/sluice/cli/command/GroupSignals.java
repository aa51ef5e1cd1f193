/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Forwards SIGINT, SIGTERM and SIGHUP that {@code sluice run} receives to its command's whole
 * process group, and turns Ctrl-Z (SIGTSTP) into a stop of that group and of {@code sluice} itself
 * (continued together by {@code fg}). The command runs in a session of its own (no controlling
 * terminal), so a terminal's Ctrl-C reaches only {@code sluice}, which passes it on; forwarding to
 * the group, not just its leader, is what stops {@code make -j} and {@code mvn} forks too.
 *
 * <p>A signal that arrives before the group exists is remembered instead ({@link #early()}), so the
 * command is then not started at all. Thread-safe: handlers run on the JVM's signal threads;
 * forwarding blocks for one short {@code kill} process.
 */
final class GroupSignals implements AutoCloseable {
  private static final List<String> FORWARDED = List.of("INT", "TERM", "HUP");
  private static final String KILL = firstExisting("/bin/kill", "/usr/bin/kill");

  private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();
  private final PrintWriter err;
  private long group;
  private Signal early;

  private GroupSignals(PrintWriter err) {
    this.err = err;
  }

  /** Installs the handlers; {@link #close()} restores the previous ones. */
  static GroupSignals install(PrintWriter err) {
    GroupSignals g = new GroupSignals(err);
    for (String name : FORWARDED) {
      g.handle(name, g::handle);
    }
    g.handle("TSTP", g::suspend);
    return g;
  }

  private void handle(String name, SignalHandler handler) {
    Signal s = new Signal(name);
    try {
      previous.put(s, Signal.handle(s, handler));
    } catch (IllegalArgumentException e) {
      // The JVM runs with -Xrs or the OS reserves the signal: it then cannot reach us either.
    }
  }

  /**
   * Ctrl-Z, as a shell's job control would do it: the command's group is in a session of its own,
   * where the kernel drops SIGTSTP (an orphaned group), so it gets SIGSTOP; then this JVM stops
   * itself, and the shell shows the job as stopped. {@code fg} or {@code bg} continues this JVM,
   * which then continues the group. Before the group exists, Ctrl-Z only stops this JVM.
   */
  private void suspend(Signal s) {
    long target;
    synchronized (this) {
      target = group;
    }
    if (target != 0) {
      send("STOP", target);
      err.println("sluice: stopped the command (process group " + target + ") and itself");
      err.flush();
    }
    // Returns once something (fg, bg, kill -CONT) continues this JVM.
    kill("STOP", Long.toString(ProcessHandle.current().pid()));
    if (target != 0) {
      send("CONT", target);
      err.println("sluice: continued the command (process group " + target + ")");
      err.flush();
    }
  }

  private void handle(Signal s) {
    long target;
    synchronized (this) {
      if (group == 0) {
        if (early == null) {
          early = s;
        }
        return;
      }
      target = group;
    }
    send(s.getName(), target);
  }

  /** The first signal that arrived before {@link #target}, if any. */
  synchronized Optional<Signal> early() {
    return Optional.ofNullable(early);
  }

  /**
   * From now on, signals go to the process group {@code pgid}.
   *
   * @return a signal that arrived before, which the caller must now send itself
   */
  synchronized Optional<Signal> target(long pgid) {
    group = pgid;
    Optional<Signal> held = Optional.ofNullable(early);
    early = null;
    return held;
  }

  /**
   * Sends {@code signal} (a name such as {@code TERM}) to the group {@code pgid}; if the group does
   * not exist yet (its leader has not called setsid), to the leader alone.
   */
  static void send(String signal, long pgid) {
    if (kill(signal, "--", "-" + pgid) != 0) {
      kill(signal, Long.toString(pgid));
    }
  }

  private static int kill(String signal, String... target) {
    List<String> cmd = new ArrayList<>(List.of(KILL, "-s", signal));
    cmd.addAll(List.of(target));
    try {
      Process p =
          new ProcessBuilder(cmd)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      return waitUninterruptibly(p);
    } catch (IOException e) {
      return -1;
    }
  }

  /** Waits for {@code p} to exit even if this thread is interrupted; returns its status. */
  static int waitUninterruptibly(Process p) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return p.waitFor();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The first of {@code paths} that exists, else the last one (the error then names it). */
  static String firstExisting(String... paths) {
    for (String p : paths) {
      if (Files.isExecutable(Path.of(p))) {
        return p;
      }
    }
    return paths[paths.length - 1];
  }

  /** Restores the handlers that were there before. */
  @Override
  public void close() {
    previous.forEach(Signal::handle);
  }
}
