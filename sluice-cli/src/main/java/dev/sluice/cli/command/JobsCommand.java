/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.Durations;
import dev.sluice.cli.ExitCode;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.JsonObject;
import dev.sluice.gate.Job;
import dev.sluice.gate.PoolStatus;
import dev.sluice.gate.Ticket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
      "run, label. Running first, then offered, queued in order, paused; then the submitted jobs",
      "that ended within the retention, with how (exit 3, did not run, lost), oldest first."
    })
final class JobsCommand extends Verb {
  @Option(names = "--pool", paramLabel = "P", description = "Only this pool's jobs.")
  String pool;

  /** One live request as shown: the request and the two durations. */
  private record Live(Ticket ticket, Duration waited, Duration running) {}

  @Override
  int execute() {
    Instant now = Instant.now();
    List<PoolStatus> pools = gate().status();
    // Read after the requests: a job that ends in between is shown live, never left out.
    Map<String, Job> submitted = new LinkedHashMap<>();
    for (Job j : gate().submittedJobs().list()) {
      if (pool == null || pool.equals(j.pool())) {
        submitted.put(j.requestId(), j);
      }
    }
    List<Live> jobs = new ArrayList<>();
    for (PoolStatus p : pools) {
      if (pool != null && !pool.equals(p.name())) {
        continue;
      }
      for (Ticket t : p.holders()) {
        jobs.add(new Live(t, between(t.createdAt(), t.since()), between(t.since(), now)));
      }
      for (Ticket t : p.offers()) {
        jobs.add(new Live(t, between(t.createdAt(), now), null));
      }
      for (Ticket t : p.queued()) {
        jobs.add(new Live(t, between(t.createdAt(), now), null));
      }
      for (Ticket t : p.paused()) {
        jobs.add(new Live(t, between(t.createdAt(), now), null));
      }
    }
    List<JsonObject> all = new ArrayList<>();
    List<String> text = new ArrayList<>();
    text.add(
        String.format(
            "%-8s %-12s %3s %-10s %8s %8s %8s  %s",
            "ID", "POOL", "W", "STATE", "PID", "WAITED", "RUNNING", "LABEL"));
    for (Live j : jobs) {
      JsonObject o = json(j);
      Job sub = submitted.remove(j.ticket().requestId());
      if (sub != null) {
        o.put("submitted", true).put("log", sub.log().toString());
      }
      all.add(o);
      text.add(line(j));
    }
    for (Job ended : submitted.values()) {
      if (ended.end() != null) {
        all.add(JobAnswers.json(ended).put("submitted", true));
        text.add(endedLine(ended));
      }
    }
    print(GateJson.object().set("jobs", all), text);
    return ExitCode.OK.code();
  }

  private static Duration between(Instant from, Instant to) {
    return from == null || to == null ? Duration.ZERO : Duration.between(from, to);
  }

  private static String state(Ticket t) {
    String s = t.state().name().toLowerCase(Locale.ROOT);
    return t.position() > 0 ? s + " #" + t.position() : s;
  }

  private static String line(Live j) {
    Ticket t = j.ticket();
    return row(
        t.requestId(),
        t.pool(),
        t.weight(),
        state(t),
        t.trackedProcess().map(p -> Long.toString(p.pid())).orElse("-"),
        j.waited(),
        j.running(),
        t.label());
  }

  /** One line of the table; {@code running} is {@code null} for what has not run. */
  private static String row(
      String id,
      String pool,
      int weight,
      String state,
      String pid,
      Duration waited,
      Duration running,
      String label) {
    return String.format(
        "%-8s %-12s %3d %-10s %8s %8s %8s  %s",
        id,
        pool,
        weight,
        state,
        pid,
        Durations.human(waited),
        running == null ? "-" : Durations.human(running),
        label);
  }

  /** A submitted job that ended: its outcome in the state column, how long it waited and ran. */
  private static String endedLine(Job j) {
    String state =
        switch (j.end().outcome()) {
          case EXITED -> "exit " + j.end().exitStatus().orElseThrow();
          case QUEUE_TIMEOUT -> "timed out";
          case CANCELLED -> "cancelled";
          case NOT_STARTED -> "not run";
          case LOST -> "lost";
        };
    Instant started = j.startedAt();
    return row(
        j.requestId(),
        j.pool(),
        j.weight(),
        state,
        "-",
        between(j.submittedAt(), started == null ? j.endedAt() : started),
        started == null ? null : between(started, j.endedAt()),
        j.label());
  }

  private static JsonObject json(Live j) {
    JsonObject o = GateJson.ticket(j.ticket());
    o.put("waitedMillis", j.waited().toMillis());
    if (j.running() != null) {
      o.put("runningMillis", j.running().toMillis());
    }
    return o;
  }
}
