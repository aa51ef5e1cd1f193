/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.SluiceException;
import dev.sluice.cli.ExitCode;
import dev.sluice.gate.GateService;
import dev.sluice.gate.Permit;
import dev.sluice.gate.ProcessRef;
import dev.sluice.local.CrashStages;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import sun.misc.Signal;

/**
 * The part of {@code sluice run} (and of a submitted job's runner) after the grant: spawns the
 * command through {@code setsid} with inherited stdio (a job's: {@code /dev/null} and its log),
 * binds the permit to its process group, forwards signals to the group, waits, releases, and
 * answers the command's exit status (128+N if signal N killed it, as the JDK reports it).
 *
 * <p>Why {@code setsid} gives a known group: the JVM's child is not a process-group leader, so
 * {@code setsid} calls setsid(2) without forking and then execs the command; the pid the JDK
 * reports is therefore the command's pid and the new session's and group's id.
 *
 * <p>Not thread-safe: used once, on the invoking thread, which blocks until the command exits.
 */
final class Launch {
  /**
   * Test-only stage ({@link CrashStages}): the permit is bound to the held-back command, which has
   * not been told to go.
   */
  static final String BOUND_BEFORE_GO = "bound-before-go";

  private static final String SETSID = GroupSignals.firstExisting("/usr/bin/setsid", "/bin/setsid");

  private final GateService gate;
  private final Permit permit;
  private final CompletableFuture<StartSignal> signal;
  private final List<String> command;
  private final PrintWriter out;
  private final PrintWriter err;
  private final boolean json;
  private final Consumer<ProcessBuilder> streams;
  private final Exit exit;

  /** Records the end of a command that ran, which also ends its permit. */
  @FunctionalInterface
  interface Exit {
    /**
     * @param status the exit status (128+N for signal N)
     * @param reason the same in words, for the gate's event
     */
    void record(int status, String reason);
  }

  /** {@code sluice run}'s launch: the terminal's stdio; the exit only releases the permit. */
  Launch(
      GateService gate,
      Permit permit,
      CompletableFuture<StartSignal> signal,
      List<String> command,
      PrintWriter out,
      PrintWriter err,
      boolean json) {
    this(gate, permit, signal, command, out, err, json, ProcessBuilder::inheritIO, null);
  }

  /**
   * A launch whose command gets its stdio from {@code streams} (a submitted job's: /dev/null and
   * its log) and whose exit is recorded by {@code exit}, which must also end the permit. Messages
   * go to {@code err}.
   */
  Launch(
      GateService gate,
      Permit permit,
      CompletableFuture<StartSignal> signal,
      List<String> command,
      PrintWriter err,
      Consumer<ProcessBuilder> streams,
      Exit exit) {
    this(gate, permit, signal, command, err, err, false, streams, exit);
  }

  private Launch(
      GateService gate,
      Permit permit,
      CompletableFuture<StartSignal> signal,
      List<String> command,
      PrintWriter out,
      PrintWriter err,
      boolean json,
      Consumer<ProcessBuilder> streams,
      Exit exit) {
    this.gate = gate;
    this.permit = permit;
    this.signal = signal;
    this.command = List.copyOf(command);
    this.out = out;
    this.err = err;
    this.json = json;
    this.streams = streams;
    this.exit = exit != null ? exit : (status, reason) -> release(reason);
  }

  /** Runs the command to its end; returns the exit status {@code sluice run} exits with. */
  int run() {
    try (GroupSignals signals = GroupSignals.install(err)) {
      Optional<Signal> early = signals.early();
      if (early.isPresent()) {
        release("interrupted before start by SIG" + early.get().getName());
        return 128 + early.get().getNumber();
      }
      Process process;
      StartSignal go;
      try {
        go = StartSignal.await(signal);
      } catch (IOException e) {
        release("could not start: " + e.getMessage());
        Errors.report(e, out, err, json);
        return ExitCode.RUN_FAILED.code();
      }
      try {
        List<String> argv = new ArrayList<>();
        argv.add(SETSID);
        argv.addAll(go.waitingPrefix());
        argv.addAll(command);
        out.flush();
        err.flush();
        ProcessBuilder pb = new ProcessBuilder(argv);
        streams.accept(pb);
        process = pb.start();
      } catch (IOException e) {
        go.close();
        release("could not start: " + e.getMessage());
        Errors.report(e, out, err, json);
        return ExitCode.RUN_FAILED.code();
      }
      try (go) {
        CrashStages.reach(CrashStages.SPAWNED_BEFORE_BIND);
        long pid = process.pid();
        // A signal that came while spawning was held back; the group exists now (or soon).
        signals.target(pid).ifPresent(s -> GroupSignals.send(s.getName(), pid));
        if (!bind(pid)) {
          go.abort();
          GroupSignals.waitUninterruptibly(process);
          release("stopped: the permit could not be bound to the process");
          return ExitCode.RUN_FAILED.code();
        }
        CrashStages.reach(BOUND_BEFORE_GO);
        try {
          go.fire();
        } catch (IOException e) {
          // Only if the shell is already gone: it then exits without running the command.
        }
        int status = GroupSignals.waitUninterruptibly(process);
        exit.record(
            status, status > 128 ? "killed by signal " + (status - 128) : "exited " + status);
        if (status > 128) {
          tellWhoKilled();
        }
        return status;
      }
    }
  }

  /**
   * Binds the permit to the group. Returns false if the gate refused; true also when the command
   * was already gone (nothing to track, the release follows at once).
   */
  private boolean bind(long pid) {
    Optional<ProcessRef> ref = ProcessRef.sessionLeader(pid);
    if (ref.isEmpty()) {
      return true;
    }
    try {
      gate.start(permit.permitToken(), ref.get());
      return true;
    } catch (SluiceException | UncheckedIOException e) {
      Errors.report(e, out, err, json);
      return false;
    }
  }

  /** A {@code sluice kill} from another terminal is named here, as a cancel is. */
  private void tellWhoKilled() {
    String id = permit.ticket().requestId();
    try {
      gate.events(id).stream()
          .filter(e -> e.type().equals("killed"))
          .reduce((first, last) -> last)
          .ifPresent(
              e -> {
                err.println("sluice: " + id + " was killed " + e.detail());
                err.flush();
              });
    } catch (SluiceException | UncheckedIOException e) {
      // Only a courtesy: the exit status already says that a signal ended the command.
    }
  }

  private void release(String reason) {
    try {
      gate.release(permit.permitToken(), reason);
    } catch (SluiceException | UncheckedIOException e) {
      // The command's status matters more; the gate ends the permit with the group anyway.
      err.println("sluice: warning: could not release the permit: " + e.getMessage());
      err.flush();
    }
  }
}
