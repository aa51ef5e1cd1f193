/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.ExitCode;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.GateText;
import dev.sluice.cli.JsonObject;
import dev.sluice.gate.CapacityChange;
import dev.sluice.gate.PoolStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code pool set} and {@code pool list}: a pool's capacity is run-time state, changed with a
 * recorded history and never by preempting a holder. Each is one short gate call. Not thread-safe:
 * one invocation, one thread.
 */
@Command(
    name = "pool",
    header = "Set, list or remove gate pools; drain a SQLite limiter pool (--pool-dir).",
    mixinStandardHelpOptions = true,
    description =
        "pool set P --capacity N; pool list; pool rm P. Requests may use a pool that was set up,"
            + " or the default pool (made by its first request); any other is refused. pool"
            + " status|drain|await|resume|acknowledge --pool-dir DIR act on a SQLite limiter"
            + " pool's directory instead (a library pool, not a gate pool).",
    subcommands = {
      PoolCommand.Set.class,
      PoolCommand.ListPools.class,
      PoolCommand.Remove.class,
      LimiterPoolCommands.Status.class,
      LimiterPoolCommands.Drain.class,
      LimiterPoolCommands.Await.class,
      LimiterPoolCommands.Resume.class,
      LimiterPoolCommands.Acknowledge.class
    })
final class PoolCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  /** Without {@code set} or {@code list}: a usage error. */
  @Override
  public Integer call() {
    throw new ParameterException(
        spec.commandLine(),
        "pool needs a verb: set, list, rm, status, drain, await, resume or acknowledge");
  }

  /** {@code pool set}: changes (or creates) a pool's capacity. */
  @Command(
      name = "set",
      header = "Change a pool's capacity (created if new); nothing is preempted.",
      mixinStandardHelpOptions = true,
      description = "Change a pool's capacity (created if new); nothing is preempted.")
  static final class Set extends Verb {
    @Parameters(paramLabel = "P", description = "The pool.")
    String pool;

    @Option(
        names = "--capacity",
        paramLabel = "N",
        required = true,
        converter = PoolWeight.Units.class,
        description = "Units.")
    int capacity;

    @Option(names = "--reason", paramLabel = "R", description = "Why, kept in the history.")
    String reason = "";

    @Override
    int execute() {
      CapacityChange c = gate().setCapacity(pool, capacity, actor(), reason);
      print(GateJson.capacityChange(c), GateText.capacityChange(c));
      return ExitCode.OK.code();
    }
  }

  /** {@code pool rm}: removes a pool with nothing in it. */
  @Command(
      name = "rm",
      header = "Remove a pool; refused while it has holders, offers or a queue.",
      mixinStandardHelpOptions = true,
      description =
          "Remove a pool; refused (exit 3, pool_busy) while it has holders, offers, queued or"
              + " paused requests. Requests for it are then refused like any unknown pool's.")
  static final class Remove extends Verb {
    @Parameters(paramLabel = "P", description = "The pool.")
    String pool;

    @Option(names = "--reason", paramLabel = "R", description = "Why, kept in the event.")
    String reason = "";

    @Override
    int execute() {
      int capacity = gate().removePool(pool, actor(), reason);
      print(
          GateJson.object().put("pool", pool).put("removed", true).put("capacity", capacity),
          "removed pool " + pool + " (capacity " + capacity + ")");
      return ExitCode.OK.code();
    }
  }

  /** {@code pool list}: every pool's numbers, optionally with the capacity history. */
  @Command(
      name = "list",
      header = "List pools with capacity and use.",
      mixinStandardHelpOptions = true,
      description = "List pools with capacity and use; --history adds every capacity change.")
  static final class ListPools extends Verb {
    @Option(names = "--history", description = "Also print every capacity change.")
    boolean history;

    @Override
    int execute() {
      List<PoolStatus> pools = gate().status();
      JsonObject json = GateJson.object();
      json.set("pools", GateJson.array(pools, GateJson::poolSummary));
      List<String> text = new ArrayList<>();
      pools.forEach(p -> text.add(GateText.poolLine(p)));
      if (pools.isEmpty()) {
        text.add("no pools yet");
      }
      if (history) {
        List<CapacityChange> changes = gate().history();
        json.set("history", GateJson.array(changes, GateJson::capacityChange));
        changes.forEach(c -> text.add(GateText.capacityChange(c)));
      }
      print(json, text);
      return ExitCode.OK.code();
    }
  }
}
