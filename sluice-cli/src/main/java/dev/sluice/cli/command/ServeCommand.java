/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.Limiter;
import dev.sluice.cli.ExitCode;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.serve.ConsoleServer;
import dev.sluice.cli.serve.LimiterPool;
import dev.sluice.cli.serve.Listen;
import dev.sluice.cli.serve.PoolWatch;
import dev.sluice.cli.serve.ServeToken;
import dev.sluice.gate.GateService;
import dev.sluice.postgres.PostgresStore;
import dev.sluice.workflow.spi.WorkflowStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import sun.misc.Signal;

/**
 * {@code sluice serve}: a web console and a JSON API for the gate ({@link ConsoleServer}), until
 * SIGINT or SIGTERM, then exits 0. Optional: every other verb is correct without it. It prints the
 * console's address with the token once it listens ({@code --json}: one object with {@code url},
 * {@code loginUrl} and {@code tokenFile}).
 *
 * <p>Not thread-safe: one invocation; blocks until signalled.
 */
@Command(
    name = "serve",
    header = "A web console and JSON API for the gate, live, with actions.",
    mixinStandardHelpOptions = true,
    description = {
      "Serves a web console and a JSON API: pools, holders, offers, queue, paused requests and"
          + " the event feed, live (server-sent events); cancel, force-release (and kill) and"
          + " capacity changes behind a confirmation. Runs until Ctrl-C or SIGTERM.",
      "With --pool-dir DIR (repeatable), it shows those SQLite limiter pools too: capacity and"
          + " use, reservoir, queue, leases with owners and fencing tokens, trace, cooldown,"
          + " circuit and drain, with drain and resume behind a confirmation.",
      "With --postgres-url URL and --postgres-pool NAME (repeatable), it shows those PostgreSQL"
          + " limiter pools the same way, live through the database's NOTIFY.",
      "GET /metrics answers in Prometheus' text format: the gate's meters and those of every"
          + " limiter pool shown; a read like the rest of the API.",
      "Loopback by default. Every change needs the token (made into HOME/serve.token, mode"
          + " 0600, unless --token-file names one) and the same origin; off loopback, reads"
          + " need it too. Open the printed address (with ?token=...) once: the browser keeps"
          + " the token in a cookie. Scripts send Authorization: Bearer TOKEN."
    })
final class ServeCommand extends Verb {
  @Option(
      names = "--listen",
      paramLabel = "HOST:PORT",
      description = "Where to listen (default: " + Listen.DEFAULT + "; port 0 picks a free one).")
  String listen = Listen.DEFAULT;

  @Option(
      names = "--token-file",
      paramLabel = "FILE",
      description = "The token's file (default: HOME/serve.token; made, mode 0600, if missing).")
  Path tokenFile;

  @Option(
      names = "--pool-dir",
      paramLabel = "DIR",
      description =
          "A SQLite limiter pool's directory to show, with drain and resume (repeatable; never"
              + " created).")
  List<Path> poolDirs = new ArrayList<>();

  @Option(
      names = "--postgres-url",
      paramLabel = "URL",
      description =
          "The server of the --postgres-pool pools: jdbc:postgresql://HOST[:PORT]/DATABASE[?...].")
  String postgresUrl;

  @Option(
      names = "--postgres-pool",
      paramLabel = "NAME",
      description =
          "A PostgreSQL limiter pool to show, with drain and resume (repeatable; never created).")
  List<String> postgresPools = new ArrayList<>();

  @Option(
      names = "--postgres-schema",
      paramLabel = "SCHEMA",
      description = "The schema of the pools' tables (default: ${DEFAULT-VALUE}).")
  String postgresSchema = PostgresStore.DEFAULT_SCHEMA;

  @Option(
      names = "--postgres-table-prefix",
      paramLabel = "PREFIX",
      description = "The prefix of the pools' table names (default: ${DEFAULT-VALUE}).")
  String postgresTablePrefix = PostgresStore.DEFAULT_TABLE_PREFIX;

  @Option(
      names = "--workflow-db",
      paramLabel = "PATH",
      description =
          "Also show the executions of this SQLite workflow store: its directory, or the"
              + " workflows.db file in it.")
  Path workflowDb;

  @Option(
      names = "--workflow-pg",
      paramLabel = "JDBC_URL",
      description =
          "Also show the executions of the PostgreSQL workflow store at this URL"
              + " (jdbc:postgresql://HOST/DB?user=U), in --workflow-pg-schema with"
              + " --workflow-pg-table-prefix.")
  String workflowPg;

  @Option(
      names = "--workflow-pg-schema",
      paramLabel = "SCHEMA",
      description = "The schema of the --workflow-pg store's tables (default: ${DEFAULT-VALUE}).")
  String workflowPgSchema = PostgresStore.DEFAULT_SCHEMA;

  @Option(
      names = "--workflow-pg-table-prefix",
      paramLabel = "PREFIX",
      description =
          "The prefix of the --workflow-pg store's table names (default: ${DEFAULT-VALUE}).")
  String workflowPgTablePrefix = PostgresStore.DEFAULT_TABLE_PREFIX;

  @Override
  int execute() throws Exception {
    Listen where;
    try {
      where = Listen.parse(listen);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    checkPostgresOptions();
    WorkflowStore workflows =
        WorkflowStores.of(
            spec.commandLine(),
            workflowDb,
            new WorkflowStores.Pg(workflowPg, workflowPgSchema, workflowPgTablePrefix));
    GateService gate = gate();
    ServeToken token =
        ServeToken.load(
            tokenFile != null ? tokenFile : root().homePath().resolve(ServeToken.FILE_NAME));
    CountDownLatch quit = new CountDownLatch(1);
    for (String name : List.of("INT", "TERM")) {
      Signal.handle(new Signal(name), s -> quit.countDown());
    }
    List<LimiterPool> pools = new ArrayList<>();
    try (Closer limiters = new Closer(pools);
        ConsoleServer server =
            ConsoleServer.start(
                gate,
                where,
                token,
                new ServeActions(gate, actor() + " (console)"),
                open(pools),
                workflows)) {
      String url = server.uri().toString();
      String login = url + "?token=" + token.value();
      print(
          GateJson.object()
              .put("url", url)
              .put("loginUrl", login)
              .put("tokenFile", token.file().toString()),
          List.of(
              "sluice serve: "
                  + url
                  + " ("
                  + (where.loopback() ? "loopback" : "every client")
                  + "; Ctrl-C stops)",
              "open " + login + " to act (token in " + token.file() + ")"));
      quit.await();
    }
    return ExitCode.OK.code();
  }

  /** The PostgreSQL options come together: pools need a server, a server needs pools. */
  private void checkPostgresOptions() {
    if (postgresUrl == null && !postgresPools.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(),
          "--postgres-pool " + postgresPools.get(0) + " needs --postgres-url, the pools' server");
    }
    if (postgresUrl != null && postgresPools.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(),
          "--postgres-url " + postgresUrl + " shows nothing without --postgres-pool NAME");
    }
  }

  /**
   * Opens every {@code --pool-dir} and {@code --postgres-pool} into {@code pools} (so the caller
   * closes what opened), each with the configuration stored in it; a PostgreSQL pool gets a second
   * session, on which the console watches and reads it ({@link PoolWatch}).
   */
  private List<LimiterPool> open(List<LimiterPool> pools) {
    for (Path dir : poolDirs) {
      pools.add(LimiterPool.directory(dir, LimiterPoolCommands.open(dir)));
    }
    for (String name : postgresPools) {
      LimiterPoolLocation location;
      LimiterPoolLocation.Located found;
      try {
        location =
            LimiterPoolLocation.postgres(postgresUrl, name, postgresSchema, postgresTablePrefix);
        found = location.locate();
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
      Limiter limiter = Limiter.open(found.store(), found.config());
      PoolWatch watch;
      try {
        watch = PoolWatch.open(found.store(), found.config());
      } catch (RuntimeException e) {
        limiter.close();
        throw e;
      }
      pools.add(LimiterPool.postgres(location.fields(), limiter, watch));
    }
    return pools;
  }

  /** Closes the limiters of the console's pools and its watching sessions. */
  private record Closer(List<LimiterPool> pools) implements AutoCloseable {
    @Override
    public void close() {
      for (LimiterPool p : pools) {
        p.watch().ifPresent(PoolWatch::retire);
        p.limiter().close();
      }
    }
  }
}
