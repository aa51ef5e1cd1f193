/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.Durations;
import dev.sluice.cli.ExitCode;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.JsonObject;
import dev.sluice.gate.PoolStatus;
import dev.sluice.gate.Ticket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice jobs}: every run and request at the gate, one per line, as pueue and task-spooler
 * list their jobs: id, pool, weight, state, pid, how long it waited, how long it has run, label.
 * Running first (longest first), then offers, the queue in its order, and paused requests.
 *
 * <p>Not thread-safe: one invocation. Reads the gate once.
 */
@Command(
    name = "jobs",
    header = "Every run and request: state, pid, waited, running for, label.",
    mixinStandardHelpOptions = true,
    description = {
      "List every run and request at the gate, one per line: id, pool, weight, state (the queue",
      "position for a waiting one), pid of a tracked command, how long it waited, how long it has",
      "run, label. Running first, then offered, queued in order, paused."
    })
final class JobsCommand extends Verb {
  @Option(names = "--pool", paramLabel = "P", description = "Only this pool's jobs.")
  String pool;

  /** One job as shown: the request and the two durations. */
  private record Job(Ticket ticket, Duration waited, Duration running) {}

  @Override
  int execute() {
    Instant now = Instant.now();
    List<Job> jobs = new ArrayList<>();
    for (PoolStatus p : gate().status()) {
      if (pool != null && !pool.equals(p.name())) {
        continue;
      }
      for (Ticket t : p.holders()) {
        jobs.add(new Job(t, between(t.createdAt(), t.since()), between(t.since(), now)));
      }
      for (Ticket t : p.offers()) {
        jobs.add(new Job(t, between(t.createdAt(), now), null));
      }
      for (Ticket t : p.queued()) {
        jobs.add(new Job(t, between(t.createdAt(), now), null));
      }
      for (Ticket t : p.paused()) {
        jobs.add(new Job(t, between(t.createdAt(), now), null));
      }
    }
    JsonObject json = GateJson.object();
    json.set("jobs", GateJson.array(jobs, JobsCommand::json));
    List<String> text = new ArrayList<>();
    text.add(
        String.format(
            "%-8s %-12s %3s %-10s %8s %8s %8s  %s",
            "ID", "POOL", "W", "STATE", "PID", "WAITED", "RUNNING", "LABEL"));
    jobs.forEach(j -> text.add(line(j)));
    print(json, text);
    return ExitCode.OK.code();
  }

  private static Duration between(Instant from, Instant to) {
    return from == null || to == null ? Duration.ZERO : Duration.between(from, to);
  }

  private static String state(Ticket t) {
    String s = t.state().name().toLowerCase(Locale.ROOT);
    return t.position() > 0 ? s + " #" + t.position() : s;
  }

  private static String line(Job j) {
    Ticket t = j.ticket();
    return String.format(
        "%-8s %-12s %3d %-10s %8s %8s %8s  %s",
        t.requestId(),
        t.pool(),
        t.weight(),
        state(t),
        t.trackedProcess().map(p -> Long.toString(p.pid())).orElse("-"),
        Durations.human(j.waited()),
        j.running() == null ? "-" : Durations.human(j.running()),
        t.label());
  }

  private static JsonObject json(Job j) {
    JsonObject o = GateJson.ticket(j.ticket());
    o.put("waitedMillis", j.waited().toMillis());
    if (j.running() != null) {
      o.put("runningMillis", j.running().toMillis());
    }
    return o;
  }
}
