/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.SluiceException;
import dev.sluice.cli.Durations;
import dev.sluice.cli.ExitCode;
import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.GateService;
import dev.sluice.gate.Permit;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice run}: waits for capacity, runs the command in a new session and process group,
 * forwards signals to the group, releases the permit when the command exits, and exits with the
 * command's status. The waiting is the gate's ({@link GateService#acquireOwned}); the spawning,
 * tracking and releasing are in {@link Launch}.
 *
 * <p>The command has no controlling terminal (it runs through {@code setsid}): it still reads and
 * writes the terminal through inherited stdin, stdout and stderr, but a program that opens {@code
 * /dev/tty} or relies on job control (Ctrl-Z) cannot. Ctrl-C reaches {@code sluice}, which forwards
 * it to the whole group.
 *
 * <p>Not thread-safe: one invocation, one thread; it blocks while waiting and while the command
 * runs.
 */
@Command(
    name = "run",
    header = "Wait for capacity, run CMD in its own group, release at exit.",
    mixinStandardHelpOptions = true,
    description =
        "Exits with CMD's status (128+N if signal N killed it); 124 if no capacity came within"
            + " --queue-timeout; 125 if the gate refused. CMD runs in a new session without a"
            + " controlling terminal (setsid); SIGINT, SIGTERM and SIGHUP are forwarded to its"
            + " whole process group.")
final class RunCommand extends Verb {
  /** "No timeout": ten years, far beyond any wait and far from any arithmetic overflow. */
  private static final Duration FOREVER = Duration.ofDays(3650);

  @Mixin PoolWeight capacity;

  @Option(
      names = "--queue-timeout",
      paramLabel = "D",
      description = "Give up (exit 124) after waiting D; default: wait as long as it takes.")
  Duration queueTimeout;

  @Option(names = "--label", paramLabel = "L", description = "Shown to people (default: CMD).")
  String label;

  @Option(names = "--reason", paramLabel = "R", description = "Why it runs.")
  String reason = "";

  @Option(
      names = "--op",
      paramLabel = "KEY",
      description = "Operation key (default: unique per run).")
  String op;

  @Parameters(paramLabel = "CMD", arity = "1..*", description = "The command and its arguments.")
  List<String> command;

  @Override
  int execute() throws InterruptedException {
    AcquireRequest request =
        new AcquireRequest(
            agentForRun(), opKey(), capacity.pool, capacity.weight, labelOrCommand(), reason);
    Optional<Permit> permit;
    GateService gate;
    // Made while the gate is asked and waited for: it costs a process spawn, which also warms up
    // the JDK's spawning for the command itself.
    CompletableFuture<StartSignal> signal = StartSignal.prepare();
    try {
      gate = gate();
      boolean live = System.console() != null && !json();
      try (WaitLine line = WaitLine.open(err(), gate, capacity.pool, live)) {
        permit =
            gate.acquireOwned(request, queueTimeout == null ? FOREVER : queueTimeout, line::update);
      }
    } catch (SluiceException | UncheckedIOException e) {
      StartSignal.discard(signal);
      Errors.report(e, out(), err(), json());
      return ExitCode.RUN_FAILED.code();
    } catch (InterruptedException | RuntimeException | Error e) {
      StartSignal.discard(signal);
      throw e;
    }
    if (permit.isEmpty()) {
      StartSignal.discard(signal);
      err()
          .println(
              "sluice: no capacity in pool "
                  + capacity.pool
                  + " within "
                  + Durations.human(queueTimeout == null ? FOREVER : queueTimeout)
                  + "; "
                  + labelOrCommand()
                  + " did not run");
      err().flush();
      return ExitCode.QUEUE_TIMEOUT.code();
    }
    return new Launch(gate, permit.get(), signal, command, out(), err(), json()).run();
  }

  /** People running commands need no agent id: they are their user name. */
  private String agentForRun() {
    String agent = root().agentOrNull();
    return agent != null ? agent : actor();
  }

  private String opKey() {
    if (op != null) {
      return op;
    }
    return "run-"
        + ProcessHandle.current().pid()
        + "-"
        + UUID.randomUUID().toString().substring(0, 8);
  }

  private String labelOrCommand() {
    if (label != null) {
      return label;
    }
    // Quoted like a shell would need it; at most 200 characters and no control characters.
    StringBuilder b = new StringBuilder();
    for (String arg : command) {
      b.append(b.length() == 0 ? "" : " ");
      b.append(arg.matches("[A-Za-z0-9_./=:,+@%-]+") ? arg : "'" + arg.replace("'", "'\\''") + "'");
    }
    String text = b.toString().replaceAll("[\\p{Cntrl}\\u0080-\\u009f]", " ");
    return text.length() <= 200 ? text : text.substring(0, 199) + "…";
  }
}
