/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.ExitCode;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.GateText;
import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.JobRef;
import dev.sluice.gate.Permit;
import dev.sluice.gate.Ticket;
import java.time.Duration;
import java.time.Instant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The agent verbs that ask for capacity and answer offers: {@code acquire}, {@code claim}, {@code
 * decline}, {@code rejoin} and {@code cancel}. Each is one gate call (the {@code --wait} form of
 * {@code acquire} blocks up to its duration). Not thread-safe: one invocation, one thread.
 */
final class AcquireCommands {
  private AcquireCommands() {}

  /** The exit status that tells scripts what an acquire or rejoin answered. */
  static int exitFor(AcquireOutcome outcome) {
    ExitCode code;
    if (outcome instanceof AcquireOutcome.Granted) {
      code = ExitCode.OK;
    } else if (outcome instanceof AcquireOutcome.Queued) {
      code = ExitCode.QUEUED;
    } else if (outcome instanceof AcquireOutcome.Offered) {
      code = ExitCode.OFFERED;
    } else if (outcome instanceof AcquireOutcome.Paused) {
      code = ExitCode.PAUSED;
    } else {
      code = ExitCode.CONFLICT;
    }
    return code.code();
  }

  /** {@code acquire}: asks for capacity; idempotent per agent and {@code --op}. */
  @Command(
      name = "acquire",
      header = "Ask for capacity: granted, queued, offered, paused, conflict.",
      mixinStandardHelpOptions = true,
      description =
          "Exit 0 granted, 10 queued, 11 offered, 12 paused, 13 conflict. Idempotent per --agent"
              + " and --op: asking again answers with the same request, also once it has ended"
              + " (released: exit 13, conflict, naming the request and its end; cancelled: exit 14)"
              + " for the hour the gate keeps it. New work needs a new --op.")
  static final class Acquire extends Verb {
    @Mixin PoolWeight capacity;

    @Option(
        names = "--op",
        paramLabel = "KEY",
        required = true,
        description =
            "Your key for this operation; asking again with the same key answers the same request.")
    String op;

    @Option(names = "--wait", paramLabel = "D", description = "Wait up to D for a grant.")
    Duration wait;

    @Option(names = "--label", paramLabel = "L", description = "Shown to people.")
    String label = "";

    @Option(names = "--reason", paramLabel = "R", description = "Why you ask.")
    String reason = "";

    @Override
    int execute() throws InterruptedException {
      AcquireRequest request =
          capacity.inPool(
              new AcquireRequest(agent(), op, capacity.pool, capacity.weight, label, reason),
              this::gate);
      AcquireOutcome o = wait == null ? gate().acquire(request) : gate().acquire(request, wait);
      print(GateJson.outcome(o), GateText.outcome(o));
      return exitFor(o);
    }
  }

  /** {@code claim}: turns an offer into a permit. */
  @Command(
      name = "claim",
      header = "Claim an offer: it becomes a permit.",
      mixinStandardHelpOptions = true,
      description = "Claim an offer; the permit must then be started before its start deadline.")
  static final class Claim extends Verb {
    @Parameters(paramLabel = "TOKEN", description = "The offer token.")
    String token;

    @Override
    int execute() {
      Permit p = gate().claim(token);
      print(GateJson.permit(p), GateText.permit(p));
      return ExitCode.OK.code();
    }
  }

  /** {@code decline}: passes an offer on; the request is paused. */
  @Command(
      name = "decline",
      header = "Decline an offer; the request pauses until rejoined.",
      mixinStandardHelpOptions = true,
      description = "Decline an offer; the request is paused until you rejoin.")
  static final class Decline extends Verb {
    @Parameters(paramLabel = "TOKEN", description = "The offer token.")
    String token;

    @Override
    int execute() {
      printTicket(this, gate().decline(token));
      return ExitCode.OK.code();
    }
  }

  /** {@code rejoin}: puts a paused request back at the tail of its queue. */
  @Command(
      name = "rejoin",
      header = "Put a paused request back at the tail of its queue.",
      mixinStandardHelpOptions = true,
      description = "Put a paused request back at the tail of its queue (exit codes as acquire).")
  static final class Rejoin extends Verb {
    @Parameters(paramLabel = "REQUEST_ID", description = "The paused request.")
    String requestId;

    @Override
    int execute() {
      AcquireOutcome o = gate().rejoin(agent(), requestId);
      print(GateJson.outcome(o), GateText.outcome(o));
      return exitFor(o);
    }
  }

  /** {@code cancel}: withdraws a request that holds no permit. */
  @Command(
      name = "cancel",
      header = "Withdraw a queued, offered or paused request.",
      mixinStandardHelpOptions = true,
      description = {
        "Withdraw a waiting request of yours (--agent, else $USER: a plain sluice run's requests"
            + " are yours), by id or --label. A sluice run or acquire --wait waiting on it stops"
            + " without running (exit 125, or 14), and its --op answers cancelled (exit 14) from"
            + " then on.",
        "A running job is refused, never stopped: use sluice kill. Exit 16: no such job; 17: the"
            + " label names several."
      })
  static final class Cancel extends Verb {
    @Mixin JobName job;

    @Override
    int execute() {
      // Named before the gate is opened: a usage error must not create the home.
      JobRef ref = job.ref(spec);
      printTicket(this, gate().cancel(actor(), ref));
      return ExitCode.OK.code();
    }
  }

  /** Prints a ticket as the answer of {@code verb}. */
  static void printTicket(Verb verb, Ticket t) {
    verb.print(GateJson.ticket(t), GateText.ticket(t, Instant.now()));
  }
}
