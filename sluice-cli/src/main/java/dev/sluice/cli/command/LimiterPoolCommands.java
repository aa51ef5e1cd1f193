/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.ControlStatus;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.Maintenance;
import dev.sluice.cli.ExitCode;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.JsonObject;
import dev.sluice.cli.LimiterJson;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code pool status|drain|await|resume|acknowledge --pool-dir DIR} (or {@code --postgres-url URL
 * --pool NAME}): an operator's drain of a limiter pool, in a SQLite directory a {@link Limiter}
 * opened with {@code SqliteStore.directory} or in PostgreSQL, not of a gate pool. The pool is
 * opened with the configuration stored in it, so the operator need not know it; a directory without
 * a pool is refused and nothing is created. Every answer is one JSON object on stdout. Not
 * thread-safe: one invocation, one thread; {@code await} blocks until the drain settles or its
 * timeout passes.
 */
final class LimiterPoolCommands {
  private LimiterPoolCommands() {}

  /**
   * Opens the SQLite limiter pool in {@code poolDir} with the configuration stored in it.
   *
   * @throws NoSuchPoolException if the directory holds no pool (nothing is created)
   */
  static Limiter open(Path poolDir) {
    LimiterPoolLocation.Located pool = LimiterPoolLocation.directory(poolDir).locate();
    return Limiter.open(pool.store(), pool.config());
  }

  /** What every drain verb shares: the pool's location, opening it, printing its status. */
  abstract static class DrainVerb extends Verb {
    @ArgGroup(exclusive = true, multiplicity = "1")
    LimiterPoolLocation location;

    /** Does the verb's work on the pool's maintenance handle. */
    abstract int run(Maintenance maintenance, LimiterConfig config) throws Exception;

    @Override
    final int execute() throws Exception {
      checkOptions();
      LimiterPoolLocation.Located pool = location.locate();
      try (Limiter limiter = Limiter.open(pool.store(), pool.config())) {
        return run(limiter.maintenance(), pool.config());
      }
    }

    /** Refuses bad option values before the pool is touched. */
    void checkOptions() {}

    /** Prints the pool's status after the verb's work; exit 0. */
    int answer(ControlStatus s, LimiterConfig config) {
      print(status(s, config));
      return ExitCode.OK.code();
    }

    void print(JsonObject json) {
      out().println(GateJson.line(json));
      out().flush();
    }

    JsonObject status(ControlStatus s, LimiterConfig config) {
      return LimiterJson.control(LimiterJson.pool(location.describe(), config), s);
    }
  }

  /** A drain verb that names the drain it acts on by its {@code --generation}. */
  abstract static class GenerationVerb extends DrainVerb {
    @Option(names = "--generation", paramLabel = "N", required = true, description = "The drain.")
    long generation;

    /** A {@code --generation} below 1 is a usage error naming the option, value and range. */
    @Override
    void checkOptions() {
      if (generation < 1) {
        throw new ParameterException(
            spec.commandLine(),
            "--generation "
                + generation
                + " is not a drain generation: allowed are whole numbers from 1 (the number"
                + " 'pool drain' or 'pool status' printed)");
      }
    }
  }

  /** {@code pool status}: the drain, cooldown and circuit state. */
  @Command(
      name = "status",
      header = "Show a limiter pool's drain, cooldown and circuit state.",
      mixinStandardHelpOptions = true,
      description = "Show a limiter pool's capacity, drain generation, leases and waiters.")
  static final class Status extends DrainVerb {
    @Override
    int run(Maintenance m, LimiterConfig config) {
      return answer(m.status(), config);
    }
  }

  /** {@code pool drain}: new work is refused in every process; prints the generation. */
  @Command(
      name = "drain",
      header = "Drain a limiter pool: new work is refused in every process.",
      mixinStandardHelpOptions = true,
      description =
          "Start a drain (or print the running one): new work gets PoolDrainingException; work"
              + " accepted before goes on. Prints the generation to await and resume.")
  static final class Drain extends DrainVerb {
    @Override
    int run(Maintenance m, LimiterConfig config) {
      return answer(m.drain(), config);
    }
  }

  /** {@code pool await}: blocks until the drain settled, or the timeout passed. */
  @Command(
      name = "await",
      header = "Wait until a drain of a limiter pool has settled.",
      mixinStandardHelpOptions = true,
      description =
          "Wait until no work accepted before the drain holds a lease, waits or runs; exit 18 if"
              + " --timeout passes first (the drain goes on).")
  static final class Await extends GenerationVerb {
    @Option(
        names = "--timeout",
        paramLabel = "DURATION",
        description = "The longest wait (default 30s).")
    Duration timeout = Duration.ofSeconds(30);

    @Override
    int run(Maintenance m, LimiterConfig config) throws InterruptedException {
      boolean settled = m.await(generation, timeout);
      print(status(m.status(), config).put("timedOut", !settled));
      return (settled ? ExitCode.OK : ExitCode.NOT_SETTLED).code();
    }
  }

  /** {@code pool resume}: ends the running drain of the given generation. */
  @Command(
      name = "resume",
      header = "End a drain of a limiter pool; new work is admitted again.",
      mixinStandardHelpOptions = true,
      description =
          "End the drain of --generation; a stale generation (resumed, or a newer drain began) is"
              + " refused with exit 19 and nothing changes.")
  static final class Resume extends GenerationVerb {
    @Override
    int run(Maintenance m, LimiterConfig config) {
      return answer(m.resume(generation), config);
    }
  }

  /** {@code pool acknowledge}: accepts the uncertainty of operations a dead owner left. */
  @Command(
      name = "acknowledge",
      header = "Accept operations a dead owner left unconfirmed, so a drain can settle.",
      mixinStandardHelpOptions = true,
      description =
          "Accept that the --operation ids (listed as unconfirmed by pool status) may or may not"
              + " have taken effect; all or none.")
  static final class Acknowledge extends GenerationVerb {
    @Option(
        names = "--operation",
        paramLabel = "ID",
        required = true,
        description = "An unconfirmed operation id (repeatable).")
    List<String> operations;

    @Option(names = "--reason", paramLabel = "TEXT", required = true, description = "Why.")
    String reason;

    @Override
    void checkOptions() {
      super.checkOptions();
      if (reason.isBlank()) {
        throw new ParameterException(
            spec.commandLine(), "--reason '" + reason + "' is blank: say why, in words");
      }
    }

    @Override
    int run(Maintenance m, LimiterConfig config) {
      return answer(m.acknowledge(generation, operations, reason), config);
    }
  }
}
