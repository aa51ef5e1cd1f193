/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.Durations;
import dev.sluice.cli.ExitCode;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.GateText;
import dev.sluice.cli.JsonObject;
import dev.sluice.gate.ForceReleaseOutcome;
import dev.sluice.gate.HeartbeatOutcome;
import dev.sluice.gate.ProcessRef;
import dev.sluice.gate.ReleaseOutcome;
import dev.sluice.gate.Ticket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * The verbs for a held permit: {@code start}, {@code mark-started}, {@code heartbeat}, {@code
 * release} and the operator's {@code force-release}. Each is one short gate call. Not thread-safe:
 * one invocation, one thread.
 */
final class PermitCommands {
  private PermitCommands() {}

  /** {@code start}: binds a permit to a running process group. */
  @Command(
      name = "start",
      header = "Bind a permit to a running process group.",
      mixinStandardHelpOptions = true,
      description = {
        "Bind a permit to a running process group: it ends when every process of the group has"
            + " exited.",
        "PID must lead its group (start the command with setsid); --group tracks the group of a"
            + " PID that does not."
      })
  static final class Start extends Verb {
    @Parameters(paramLabel = "TOKEN", description = "The permit token.")
    String token;

    @Option(
        names = "--pid",
        paramLabel = "PID",
        required = true,
        description =
            "The process: the leader of the process group to track (its pid is the group's id).")
    long pid;

    @Option(
        names = "--group",
        description =
            "Track the whole process group of --pid even if PID does not lead it: the permit then"
                + " lasts until every process of that group has exited.")
    boolean group;

    @Override
    int execute() {
      ProcessRef process =
          ProcessRef.lookup(pid)
              .orElseThrow(
                  () ->
                      new ParameterException(
                          spec.commandLine(),
                          "--pid "
                              + pid
                              + ": no such process (or not visible in this pid namespace)"));
      if (process.pgid() != pid && !group) {
        // The permit lives as long as the group: tracking a member's group silently would tie the
        // slot to processes the agent never started (its shell, its terminal's job).
        throw new ParameterException(
            spec.commandLine(),
            "--pid "
                + pid
                + " does not lead its process group "
                + process.pgid()
                + "; the permit would last until every process of group "
                + process.pgid()
                + " has exited. Pass --group to track group "
                + process.pgid()
                + " anyway, or start the command in a group of its own (setsid CMD) and pass its"
                + " pid");
      }
      AcquireCommands.printTicket(this, gate().start(token, process));
      return ExitCode.OK.code();
    }
  }

  /** {@code mark-started}: starts a permit that lives on heartbeats. */
  @Command(
      name = "mark-started",
      header = "Start a permit without a process; keep it with heartbeats.",
      mixinStandardHelpOptions = true,
      description = "Start a permit without a process: it lives while you send heartbeats.")
  static final class MarkStarted extends Verb {
    @Parameters(paramLabel = "TOKEN", description = "The permit token.")
    String token;

    @Override
    int execute() {
      AcquireCommands.printTicket(this, gate().markStarted(token));
      return ExitCode.OK.code();
    }
  }

  /** {@code heartbeat}: extends the agent's untracked leases. */
  @Command(
      name = "heartbeat",
      header = "Extend every untracked permit of the agent.",
      mixinStandardHelpOptions = true)
  static final class Heartbeat extends Verb {
    @Parameters(
        paramLabel = "TOKEN",
        arity = "0..*",
        description =
            "Permit tokens to check (default: every untracked permit of the agent); a lost one"
                + " exits 15.")
    List<String> tokens = new ArrayList<>();

    @Override
    int execute() {
      String agent = tokens.isEmpty() ? agent() : root().agentOrNull();
      HeartbeatOutcome h = gate().heartbeat(agent, tokens);
      List<String> text = new ArrayList<>();
      int n = h.extended();
      text.add(
          "extended "
              + n
              + " permit"
              + (n == 1 ? "" : "s")
              + (agent == null ? "" : " of " + agent));
      for (Ticket t : h.lost()) {
        text.add(
            "lost     "
                + t.requestId()
                + " (pool "
                + t.pool()
                + "): "
                + t.endReason()
                + "; the slot is no longer held, stop its work");
      }
      print(GateJson.heartbeat(agent, h), text);
      return (h.lost().isEmpty() ? ExitCode.OK : ExitCode.PERMIT_LOST).code();
    }
  }

  /** {@code release}: ends a permit; idempotent. */
  @Command(
      name = "release",
      header = "Release a permit (idempotent).",
      mixinStandardHelpOptions = true,
      description = "Release a permit; releasing again answers alreadyReleased.")
  static final class Release extends Verb {
    @Parameters(paramLabel = "TOKEN", description = "The permit token.")
    String token;

    @Option(names = "--reason", paramLabel = "R", description = "Why (default: released).")
    String reason = "released";

    @Override
    int execute() {
      ReleaseOutcome r = gate().release(token, reason);
      print(GateJson.release(r), GateText.release(r));
      // The work ran (or runs) without its slot for a while: a script must be able to tell.
      return (r.loss().isPresent() ? ExitCode.PERMIT_LOST : ExitCode.OK).code();
    }
  }

  /** {@code force-release}: an operator ends someone's permit. */
  @Command(
      name = "force-release",
      header = "Release someone's held permit, as an operator.",
      mixinStandardHelpOptions = true,
      description = {
        "Release someone's held permit as an operator (actor: --agent or $USER).",
        "The slot is freed at once. If the permit's process group still runs, the answer and the"
            + " force_released event say so: the pool is over-subscribed until it ends. --kill"
            + " stops the group first (SIGTERM, then SIGKILL after --grace) to free the slot for"
            + " real."
      })
  static final class ForceRelease extends Verb {
    @Parameters(paramLabel = "REQUEST_ID", description = "The request holding the permit.")
    String requestId;

    @Option(
        names = "--kill",
        description = "SIGTERM the permit's process group, SIGKILL it after --grace, then release.")
    boolean kill;

    @Option(
        names = "--grace",
        paramLabel = "D",
        description = "With --kill: how long the group gets after SIGTERM (default: 10s).")
    Duration grace;

    @Option(names = "--reason", paramLabel = "R", description = "Why (recorded in the event).")
    String reason = "";

    @Override
    int execute() throws InterruptedException {
      if (grace != null && !kill) {
        throw new ParameterException(
            spec.commandLine(), "--grace " + Durations.human(grace) + " applies only with --kill");
      }
      String why = reason;
      GroupKill.Result killed = GroupKill.Result.NOTHING;
      if (kill) {
        Duration g = grace == null ? GroupKill.DEFAULT_GRACE : grace;
        killed = GroupKill.stop(gate(), requestId, actor(), g);
        String done = killed.describe();
        why = done.isEmpty() ? reason : reason.isEmpty() ? done : reason + "; " + done;
      }
      ForceReleaseOutcome f = gate().forceReleaseChecked(requestId, actor(), why);
      ReleaseOutcome r = f.release();
      JsonObject json = GateJson.release(r);
      List<String> text = new ArrayList<>(List.of(GateText.release(r)));
      json.put("processGroupRunning", f.stillRunning().isPresent());
      f.stillRunning().ifPresent(p -> json.put("pgid", p.pgid()));
      f.stillRunning()
          .ifPresent(
              p ->
                  text.add(
                      "warning: process group "
                          + p.pgid()
                          + " still runs: the pool is over-subscribed until it ends; "
                          + "use force-release --kill to stop it"));
      if (killed.outcome() != GroupKill.Outcome.NOTHING_RUNNING) {
        json.put("killed", killed.endedBy()).put("pgid", killed.pgid());
        text.add(killed.describe());
      }
      print(json, text);
      return ExitCode.OK.code();
    }
  }
}
