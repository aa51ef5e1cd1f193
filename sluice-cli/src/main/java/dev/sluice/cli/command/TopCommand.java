/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.Dashboard;
import dev.sluice.cli.ExitCode;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.JsonObject;
import dev.sluice.cli.top.LiveTop;
import dev.sluice.cli.top.TopSnapshot;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateService;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code sluice top}: pools, holders, offers, queue and the event feed. On a terminal it runs the
 * live view ({@link LiveTop}: a full-screen JLine dashboard whose event feed fills the rows the
 * pools leave, redrawn when the gate changes, when the window is resized and each second while a
 * countdown is on screen, until {@code q} or Ctrl-C, then exits 0). Off a terminal, with {@code
 * --json}, or on a terminal that cannot move its cursor, it prints one snapshot.
 *
 * <p>JLine is reached only from inside {@link #execute()}, never from a field or a signature of
 * this class: picocli reflects on every verb at each start, and {@code sluice run} must not pay for
 * loading JLine.
 *
 * <p>Not thread-safe: one invocation. The live view blocks until the user quits.
 */
@Command(
    name = "top",
    header = "A live dashboard of pools, holders, queue and events.",
    mixinStandardHelpOptions = true,
    description = {
      "A live dashboard of pools, holders, offers, queue and events; q or Ctrl-C quits.",
      "Requests show their labels, times are local; offers, start deadlines and untracked",
      "leases count down. Colours unless the terminal has none or NO_COLOR is set.",
      "Off a terminal, or with --json, one snapshot."
    })
final class TopCommand extends Verb {
  /** How many events a snapshot shows when {@code --events} is not given. */
  static final int SNAPSHOT_EVENTS = 15;

  @Option(
      names = "--events",
      paramLabel = "N",
      description =
          "Events: a snapshot shows the N latest (default: 15); the live view at most N"
              + " (default: as many as fit).")
  Integer eventCount;

  @Override
  int execute() throws IOException {
    if (eventCount != null && eventCount < 0) {
      throw new ParameterException(
          spec.commandLine(), "--events must be 0 or more, was " + eventCount);
    }
    GateService gate = gate();
    if (System.console() != null && !json()) {
      int kept = eventCount == null ? LiveTop.MOST_EVENTS : eventCount;
      if (LiveTop.show(gate, kept, root().env().get("NO_COLOR"))) {
        return ExitCode.OK.code();
      }
    }
    int count = eventCount == null ? SNAPSHOT_EVENTS : eventCount;
    if (json()) {
      List<GateEvent> recent = Dashboard.latestEvents(gate, gate.lastEventSequence(), count);
      JsonObject o = GateJson.status(gate.status());
      o.set("events", GateJson.array(recent, GateJson::event));
      print(o, List.of());
    } else {
      print(null, TopSnapshot.lines(gate, count, Clock.systemDefaultZone()));
    }
    return ExitCode.OK.code();
  }
}
