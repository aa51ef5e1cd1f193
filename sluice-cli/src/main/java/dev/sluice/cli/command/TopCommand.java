/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.Dashboard;
import dev.sluice.cli.ExitCode;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.JsonObject;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateService;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice top}: pools, holders, offers, queue and the event feed. Off a terminal (or with
 * {@code --json}) it prints one snapshot; on a terminal it redraws the screen whenever events
 * arrive and at least once a second (so durations advance), until SIGINT or SIGTERM, then exits 0.
 *
 * <p>Not thread-safe: one invocation, one thread; the live view blocks in the gate's event wait.
 */
@Command(
    name = "top",
    header = "A live dashboard of pools, holders, queue and events.",
    mixinStandardHelpOptions = true,
    description = "A live dashboard of pools, holders, offers, queue and events.")
final class TopCommand extends Verb {
  private static final String HOME_AND_CLEAR = "\033[H\033[2J";
  private static final Duration FRAME = Duration.ofSeconds(1);

  @Option(names = "--events", paramLabel = "N", defaultValue = "15", description = "Events shown.")
  int eventCount;

  @Override
  int execute() throws InterruptedException {
    GateService gate = gate();
    Deque<GateEvent> recent = new ArrayDeque<>();
    // No "latest N events" call exists: read the retained feed once, keep its tail.
    long last = add(recent, gate.events(0, gate.settings().eventsKept()), 0);
    PrintWriter out = out();
    if (System.console() == null || json()) {
      if (json()) {
        JsonObject o = GateJson.status(gate.status());
        o.set("events", GateJson.array(recent, GateJson::event));
        print(o, List.of());
      } else {
        print(null, Dashboard.render(gate.home(), gate.status(), recent, Instant.now()));
      }
      return ExitCode.OK.code();
    }
    Interrupts.exitOnSignal(out, out::println);
    while (true) {
      List<String> frame = Dashboard.render(gate.home(), gate.status(), recent, Instant.now());
      synchronized (out) {
        out.print(HOME_AND_CLEAR);
        frame.forEach(out::println);
        out.flush();
      }
      last = add(recent, gate.awaitEvents(last, 1000, FRAME), last);
    }
  }

  private long add(Deque<GateEvent> recent, List<GateEvent> events, long last) {
    for (GateEvent e : events) {
      recent.addLast(e);
      if (recent.size() > eventCount) {
        recent.removeFirst();
      }
      last = Math.max(last, e.sequence());
    }
    return last;
  }
}
