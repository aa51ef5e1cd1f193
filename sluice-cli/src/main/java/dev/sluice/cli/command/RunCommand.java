/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.gate.GateService;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice run}: waits for capacity, runs the command in a new session and process group,
 * forwards signals to the group, releases the permit when the command exits, and exits with the
 * command's status. This class is its picocli model; the work is {@link RunAction}'s (the waiting
 * is the gate's, {@link GateService#acquireOwned}; the spawning, tracking and releasing are {@link
 * Launch}'s), and {@link QuickRun} reads the plain forms of the command line without picocli.
 *
 * <p>The command has no controlling terminal (it runs through {@code setsid}): it still reads and
 * writes the terminal through inherited stdin, stdout and stderr, but a program that opens {@code
 * /dev/tty} cannot. Ctrl-C reaches {@code sluice}, which forwards it to the whole group; Ctrl-Z
 * stops the group (SIGSTOP: SIGTSTP is dropped in a session without a terminal) and then {@code
 * sluice} itself, and {@code fg} continues both.
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
            + " whole process group; Ctrl-Z stops the group and sluice, fg continues both.")
final class RunCommand extends Verb {
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

  @Option(
      names = {"-q", "--quiet"},
      description =
          "Off a terminal, print no line when the run starts waiting and when it gets its slot.")
  boolean quiet;

  @Parameters(paramLabel = "CMD", arity = "1..*", description = "The command and its arguments.")
  List<String> command;

  @Override
  int execute() throws InterruptedException {
    return new RunAction(args(), root().env(), out(), err()).run();
  }

  /** What picocli read. */
  RunArgs args() {
    SluiceCommand root = root();
    return new RunArgs(
        root.homeOption(),
        json(),
        quiet,
        root.agentOption(),
        capacity.poolOrNull(),
        capacity.weight,
        queueTimeout,
        label,
        reason,
        op,
        command);
  }
}
