/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.Durations;
import dev.sluice.cli.ExitCode;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.JsonObject;
import dev.sluice.gate.JobRef;
import dev.sluice.gate.KillPlan;
import dev.sluice.gate.Ticket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code sluice kill}: stops a job of yours, by id or label, from any terminal. A job still waiting
 * is cancelled (as {@code cancel} does it); a running one's process group gets SIGTERM (or {@code
 * --signal}), then SIGKILL after {@code --grace} if it still runs. The {@code sluice run} that
 * started it then exits as a shell reports a signal death (143 for SIGTERM) and releases the slot
 * as for any end; the {@code killed} event names who killed it.
 *
 * <p>Not thread-safe: one invocation, one thread. Blocks up to twice the grace period, sleeping in
 * the gate's wait for the job to end.
 */
@Command(
    name = "kill",
    header = "Stop a job by id or label: cancel it if it waits, signal it if it runs.",
    mixinStandardHelpOptions = true,
    description = {
      "Stop a job of yours (--agent, else $USER: a plain sluice run's jobs are yours), by id or"
          + " --label, from any terminal. A queued, offered or paused job is cancelled (as sluice"
          + " cancel does). A running one's whole process group gets --signal (default TERM), then"
          + " SIGKILL if it still runs after --grace; its sluice run exits 128+N (143 for SIGTERM)"
          + " and frees the slot. The killed event names you.",
      "Exit 0 when done; 16: no such job; 17: the label names several; 3: it ended already or"
          + " has no process group to signal."
    })
final class KillCommand extends Verb {
  @Mixin JobName job;

  @Option(
      names = "--signal",
      paramLabel = "SIG",
      converter = KillSignal.Converter.class,
      description = "The first signal: TERM (default), INT, HUP, QUIT, USR1, USR2 or KILL.")
  KillSignal signal = KillSignal.TERM;

  @Option(
      names = "--grace",
      paramLabel = "D",
      description = "How long the group gets after the first signal before SIGKILL (default: 10s).")
  Duration grace;

  @Override
  int execute() throws InterruptedException {
    JobRef ref = job.ref(spec);
    if (grace != null && signal == KillSignal.KILL) {
      throw new ParameterException(
          spec.commandLine(),
          "--grace "
              + Durations.human(grace)
              + " applies only to a signal a command can catch; --signal KILL has none");
    }
    Duration g = grace == null ? GroupKill.DEFAULT_GRACE : grace;
    KillPlan plan = gate().kill(actor(), ref, signal.wireName());
    if (plan instanceof KillPlan.Cancelled c) {
      Ticket t = c.ticket();
      print(
          GateJson.ticket(t).put("action", "cancelled"),
          "cancelled " + name(t) + ": it was waiting and never ran");
      return ExitCode.OK.code();
    }
    KillPlan.SignalGroup s = (KillPlan.SignalGroup) plan;
    String id = s.ticket().requestId();
    GroupKill.Result r = GroupKill.signal(gate(), id, actor(), s.group(), signal, g);
    Ticket after = gate().ticket(id).orElse(s.ticket());
    boolean running = s.group().groupMayRun();
    JsonObject json =
        GateJson.ticket(after)
            .put("action", "killed")
            .put("signal", signal.wireName())
            .put("pgid", r.pgid())
            .put("endedBy", r.endedBy())
            .put("processGroupRunning", running);
    List<String> text = new ArrayList<>(List.of(name(after) + ": " + r.describe()));
    if (running) {
      text.add(
          "warning: process group "
              + r.pgid()
              + " still runs after SIGKILL (a process in uninterruptible sleep?); its slot stays"
              + " held until it ends");
    }
    print(json, text);
    return ExitCode.OK.code();
  }

  private static String name(Ticket t) {
    return t.requestId()
        + " (pool "
        + t.pool()
        + (t.label().isEmpty() ? "" : ", \"" + t.label() + "\"")
        + ")";
  }
}
