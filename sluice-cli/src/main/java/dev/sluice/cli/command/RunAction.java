/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.SluiceException;
import dev.sluice.cli.Durations;
import dev.sluice.cli.ExitCode;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.Home;
import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.GateService;
import dev.sluice.gate.Permit;
import dev.sluice.local.HeadStart;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The work of {@code sluice run}, whichever parser read its command line: opens the gate, waits for
 * a permit ({@link GateService#acquireOwned}), then hands over to {@link Launch}, and closes the
 * gate at the end.
 *
 * <p>Not thread-safe: one invocation, one thread; {@link #run} blocks while waiting and while the
 * command runs.
 */
final class RunAction {
  /** "No timeout": ten years, far beyond any wait and far from any arithmetic overflow. */
  private static final Duration FOREVER = Duration.ofDays(3650);

  private final RunArgs args;
  private final Map<String, String> env;
  private final PrintWriter out;
  private final PrintWriter err;

  RunAction(RunArgs args, Map<String, String> env, PrintWriter out, PrintWriter err) {
    this.args = args;
    this.env = env;
    this.out = out;
    this.err = err;
  }

  /** Runs the command under a permit; returns the exit status of {@code sluice run}. */
  int run() throws InterruptedException {
    AcquireRequest request;
    try {
      // Without --pool the gate's configured default pool is meant, known once the gate is open;
      // the request is checked first, with the pool every home has in its place.
      request =
          new AcquireRequest(
              Identity.actor(args.agent(), env),
              opKey(),
              args.pool() == null ? AcquireRequest.DEFAULT_POOL : args.pool(),
              args.weight(),
              labelOrCommand(),
              args.reason());
    } catch (IllegalArgumentException e) {
      // A bad value is a usage error, and every usage error of run is 125: not CMD's status.
      Errors.report(e, out, err, args.json());
      return ExitCode.RUN_FAILED.code();
    }
    Duration timeout = args.queueTimeout() == null ? FOREVER : args.queueTimeout();
    // Both on helper threads while the gate is opened and asked: the JDK's security set-up that
    // the op key, the token and the owner registration need (HeadStart), and the start signal,
    // needed only after the grant, which costs a process spawn and so also warms up the JDK's
    // spawning for the command itself.
    CompletableFuture.runAsync(HeadStart::run);
    CompletableFuture<StartSignal> signal = StartSignal.prepare();
    GateService gate = null;
    try {
      Optional<Permit> permit;
      try {
        gate = GateService.open(Home.resolve(args.home(), env));
        if (args.pool() == null) {
          request = PoolWeight.inPool(request, gate.defaultPool());
        }
        boolean terminal = System.console() != null;
        WaitLog log = new WaitLog(err, gate, request.pool(), !terminal && !args.quiet());
        try (WaitLine line = WaitLine.open(err, gate, request.pool(), terminal && !args.json())) {
          permit =
              gate.acquireOwned(
                  request,
                  timeout,
                  o -> {
                    line.update(o);
                    log.update(o);
                  });
        }
      } catch (SluiceException | UncheckedIOException | IllegalArgumentException e) {
        StartSignal.discard(signal);
        Errors.report(e, out, err, args.json());
        err.println("sluice: " + labelOrCommand() + " did not run");
        err.flush();
        return ExitCode.RUN_FAILED.code();
      } catch (InterruptedException | RuntimeException | Error e) {
        StartSignal.discard(signal);
        throw e;
      }
      if (permit.isEmpty()) {
        StartSignal.discard(signal);
        String message =
            "no capacity in pool "
                + request.pool()
                + " within "
                + Durations.human(timeout)
                + "; "
                + labelOrCommand()
                + " did not run";
        err.println("sluice: " + message);
        err.flush();
        if (args.json()) {
          // A script reading --json must not have to tell a timeout from a crash by silence.
          out.println(GateJson.line(GateJson.error("queue_timeout", message)));
          out.flush();
        }
        return ExitCode.QUEUE_TIMEOUT.code();
      }
      return new Launch(gate, permit.get(), signal, args.command(), out, err, args.json()).run();
    } finally {
      if (gate != null) {
        gate.close();
      }
    }
  }

  private String opKey() {
    if (args.op() != null) {
      return args.op();
    }
    return "run-"
        + ProcessHandle.current().pid()
        + "-"
        + UUID.randomUUID().toString().substring(0, 8);
  }

  private String labelOrCommand() {
    return args.label() != null ? args.label() : describe(args.command());
  }

  /**
   * A command as a label: quoted like a shell would need it, at most 200 characters and without
   * control characters.
   */
  static String describe(java.util.List<String> command) {
    StringBuilder b = new StringBuilder();
    for (String arg : command) {
      b.append(b.length() == 0 ? "" : " ");
      b.append(arg.matches("[A-Za-z0-9_./=:,+@%-]+") ? arg : "'" + arg.replace("'", "'\\''") + "'");
    }
    String text = b.toString().replaceAll("[\\p{Cntrl}\\u0080-\\u009f]", " ");
    return text.length() <= 200 ? text : text.substring(0, 199) + "…";
  }
}
