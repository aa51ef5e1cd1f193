/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.ExitCode;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.GateText;
import dev.sluice.gate.Diagnosis;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.PoolStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The verbs that only look: {@code pending}, {@code events}, {@code diagnose} and {@code status}.
 * {@code pending --wait} and {@code events --follow} block on the gate's wake-ups (never a polling
 * loop); {@code events --follow} runs until SIGINT or SIGTERM and then exits 0. Not thread-safe:
 * one invocation, one thread.
 */
final class ViewCommands {
  /** How long one wait of {@code events --follow} lasts; a signal ends it at any time. */
  private static final Duration FOLLOW_WAIT = Duration.ofSeconds(30);

  private ViewCommands() {}

  /** {@code pending}: what the agent has at the gate. */
  @Command(
      name = "pending",
      header = "The agent's offers, permits, queue and paused entries.",
      mixinStandardHelpOptions = true,
      description =
          "Show the agent's offers (with fresh tokens), permits, queue and paused entries.")
  static final class Pending extends Verb {
    @Option(names = "--wait", paramLabel = "D", description = "First wait up to D for a change.")
    Duration wait;

    @Override
    int execute() throws InterruptedException {
      String agent = agent();
      dev.sluice.gate.Pending p =
          wait == null ? gate().pending(agent) : gate().pending(agent, wait);
      print(GateJson.pending(p), GateText.pending(p));
      return ExitCode.OK.code();
    }
  }

  /** {@code events}: the event feed, once or followed. */
  @Command(
      name = "events",
      header = "The event feed after a sequence number; --follow waits.",
      mixinStandardHelpOptions = true,
      description =
          "Print events after sequence N, oldest first, one per line; --follow keeps printing them"
              + " as they happen until SIGINT or SIGTERM, which end it with status 0. With --json"
              + " each line is {\"sequence\", \"at\", \"type\", \"pool\", \"requestId\","
              + " \"agentId\", \"detail\"}.")
  static final class Events extends Verb {
    @Option(names = "--since", paramLabel = "N", defaultValue = "0", description = "After N.")
    long since;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "1000", description = "Per read.")
    int limit;

    @Option(names = "--follow", description = "Wait for new events and print them as they come.")
    boolean follow;

    @Override
    int execute() throws InterruptedException {
      PrintWriter out = out();
      long last = printAll(out, gate().events(since, limit));
      if (!follow) {
        return ExitCode.OK.code();
      }
      // Every line is flushed as printed, so a signal can end the command between two lines.
      Interrupts.exitOnSignal(out, () -> {});
      while (true) {
        last = printAll(out, gate().awaitEvents(last, limit, FOLLOW_WAIT));
      }
    }

    private long printAll(PrintWriter out, List<GateEvent> events) {
      long last = since;
      for (GateEvent e : events) {
        synchronized (out) {
          out.println(json() ? GateJson.line(GateJson.event(e)) : GateText.event(e));
          out.flush();
        }
        last = e.sequence();
      }
      since = Math.max(since, last);
      return since;
    }
  }

  /** {@code diagnose}: why heads wait, long holders, doubtful holders. */
  @Command(
      name = "diagnose",
      header = "Why queue heads wait; long, dead or unverifiable holders.",
      mixinStandardHelpOptions = true,
      description = "Explain why queue heads wait, and flag long, dead or unverifiable holders.")
  static final class Diagnose extends Verb {
    @Override
    int execute() {
      Diagnosis d = gate().diagnose();
      print(GateJson.diagnosis(d), GateText.diagnosis(d));
      return ExitCode.OK.code();
    }
  }

  /** {@code status}: every pool with holders, offers, queue and paused requests. */
  @Command(
      name = "status",
      header = "Every pool: capacity, use, holders, offers, queue.",
      mixinStandardHelpOptions = true,
      description = "Show every pool: capacity, use, holders, offers, queue and paused requests.")
  static final class Status extends Verb {
    @Override
    int execute() {
      List<PoolStatus> pools = gate().status();
      print(GateJson.status(pools), GateText.status(pools, Instant.now()));
      return ExitCode.OK.code();
    }
  }
}
