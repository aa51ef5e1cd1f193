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
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateService;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice top}: pools, holders, offers, queue and the event feed. On a terminal it runs the
 * live view ({@link LiveTop}: a full-screen JLine dashboard, redrawn when events arrive and once a
 * second, until {@code q} or Ctrl-C, then exits 0). Off a terminal, with {@code --json}, or on a
 * terminal that cannot move its cursor, it prints one snapshot.
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
      "Off a terminal, or with --json, one snapshot."
    })
final class TopCommand extends Verb {
  @Option(names = "--events", paramLabel = "N", defaultValue = "15", description = "Events shown.")
  int eventCount;

  @Override
  int execute() throws IOException {
    GateService gate = gate();
    if (System.console() != null && !json() && LiveTop.show(gate, Math.max(0, eventCount))) {
      return ExitCode.OK.code();
    }
    List<GateEvent> recent =
        Dashboard.latestEvents(gate, gate.lastEventSequence(), Math.max(0, eventCount));
    if (json()) {
      JsonObject o = GateJson.status(gate.status());
      o.set("events", GateJson.array(recent, GateJson::event));
      print(o, List.of());
    } else {
      print(null, Dashboard.render(gate.home(), gate.status(), recent, Instant.now()));
    }
    return ExitCode.OK.code();
  }
}
