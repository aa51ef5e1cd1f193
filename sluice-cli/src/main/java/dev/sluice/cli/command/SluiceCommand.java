/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.Durations;
import dev.sluice.cli.ExitCode;
import dev.sluice.cli.Home;
import dev.sluice.gate.GateService;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code sluice} command itself: the global options every verb inherits ({@code --home}, {@code
 * --json}, {@code --agent}) and the list of verbs. It opens the gate lazily, so {@code --help},
 * {@code --version} and usage errors never touch the store.
 *
 * <p>Not thread-safe: one instance serves one invocation, on the thread that runs it (a verb may
 * start helper threads, which only read what it gave them).
 */
@Command(
    name = "sluice",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description =
        "A machine-wide job gate: pools of capacity shared by people, CI jobs and coding agents,"
            + " in strict FIFO order. Every command is correct without a daemon.")
public final class SluiceCommand implements Callable<Integer> {
  /** The verbs, in the order {@code --help} lists them. */
  private static final List<Class<?>> VERBS =
      List.of(
          RunCommand.class,
          SubmitCommand.class,
          LogsCommand.class,
          WaitCommand.class,
          JobRunnerCommand.class,
          AcquireCommands.Acquire.class,
          AcquireCommands.Claim.class,
          AcquireCommands.Decline.class,
          AcquireCommands.Rejoin.class,
          AcquireCommands.Cancel.class,
          KillCommand.class,
          PermitCommands.Start.class,
          PermitCommands.MarkStarted.class,
          PermitCommands.Heartbeat.class,
          PermitCommands.Release.class,
          PermitCommands.ForceRelease.class,
          ViewCommands.Pending.class,
          ViewCommands.Events.class,
          ViewCommands.Diagnose.class,
          ViewCommands.Status.class,
          JobsCommand.class,
          PoolCommand.class,
          ConfigCommand.class,
          TopCommand.class,
          McpCommand.class,
          ServeCommand.class,
          CompletionCommand.class);

  /** Global options that take a value, so the word after them is not the verb. */
  private static final Set<String> VALUED = Set.of("--home", "--agent");

  @Spec CommandSpec spec;

  @Option(
      names = "--home",
      paramLabel = "DIR",
      scope = ScopeType.INHERIT,
      description =
          "The gate's home (default: $SLUICE_HOME, $XDG_STATE_HOME/sluice, ~/.local/state/sluice).")
  Path home;

  @Option(
      names = "--json",
      scope = ScopeType.INHERIT,
      description = "Print one JSON object per line on stdout.")
  boolean json;

  @Option(
      names = "--agent",
      paramLabel = "ID",
      scope = ScopeType.INHERIT,
      description = "Who asks (default: $SLUICE_AGENT_ID).")
  String agent;

  private final Map<String, String> env;
  private GateService gate;

  /**
   * Creates the command.
   *
   * @param env the environment to read {@code SLUICE_HOME}, {@code SLUICE_AGENT_ID} and friends
   *     from (tests pass their own)
   */
  public SluiceCommand(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  /** The environment this command reads its defaults from. */
  Map<String, String> environment() {
    return env;
  }

  /**
   * A ready command line: durations in the documented forms, the exit-status footer, and the error
   * handlers that map failures to {@link ExitCode}s.
   *
   * @param env the environment, see {@link #SluiceCommand(Map)}
   */
  public static CommandLine commandLine(Map<String, String> env) {
    return commandLine(env, null);
  }

  /**
   * A ready command line for {@code args}: when they name a verb, only that verb's model is built.
   * Picocli builds a verb's model by reflection, and doing so for every verb cost about a tenth of
   * a second of each call; {@code --help}, no verb or an unknown one still get every verb, so usage
   * lists them all.
   *
   * @param env the environment, see {@link #SluiceCommand(Map)}
   * @param args the command line that will be executed, or {@code null} for every verb
   */
  public static CommandLine commandLine(Map<String, String> env, String[] args) {
    SluiceCommand root = new SluiceCommand(env);
    CommandLine cl = new CommandLine(root);
    String verb = args == null ? null : verbOf(args);
    for (Class<?> c : VERBS) {
      if (verb == null || verb.equals(c.getAnnotation(Command.class).name())) {
        cl.addSubcommand(c);
      }
    }
    cl.registerConverter(Duration.class, SluiceCommand::duration);
    cl.registerConverter(Integer.class, SluiceCommand::whole);
    cl.registerConverter(Integer.TYPE, SluiceCommand::whole);
    cl.registerConverter(Long.class, SluiceCommand::wholeLong);
    cl.registerConverter(Long.TYPE, SluiceCommand::wholeLong);
    cl.getCommandSpec().usageMessage().footer(ExitCode.helpFooter());
    // "sluice run make -j4" must hand "-j4" to make, not parse it as a sluice option.
    for (String name : List.of("run", "submit", RunnerProcess.VERB)) {
      CommandLine takesCommand = cl.getSubcommands().get(name);
      if (takesCommand != null) {
        takesCommand.setStopAtPositional(true);
      }
    }
    // "--pool -x" is a forgotten value followed by a mistyped option, never a pool named "-x".
    cl.setUnmatchedOptionsAllowedAsOptionParameters(false);
    cl.setExecutionExceptionHandler(Errors::onExecution);
    cl.setParameterExceptionHandler(Errors::onParameter);
    return cl;
  }

  /** The verb {@code args} name, or {@code null} for none, an unknown one, or a help request. */
  static String verbOf(String[] args) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--")) {
        return null;
      }
      if (a.startsWith("-")) {
        if (a.equals("-h") || a.equals("--help") || a.equals("-V") || a.equals("--version")) {
          return null;
        }
        if (VALUED.contains(a)) {
          i++;
        }
        continue;
      }
      for (Class<?> c : VERBS) {
        if (a.equals(c.getAnnotation(Command.class).name())) {
          return a;
        }
      }
      return null;
    }
    return null;
  }

  /**
   * As picocli reads an int, but a refusal says what is allowed (every int option counts something
   * from 1; weights and capacities name their own smaller range, see {@link PoolWeight.Units}).
   */
  private static Integer whole(String text) {
    try {
      return Integer.valueOf(text);
    } catch (NumberFormatException e) {
      throw new CommandLine.TypeConversionException(
          "'" + text + "' is not a whole number from 1 to " + Integer.MAX_VALUE);
    }
  }

  /** As picocli reads a long (sequence numbers, pids), but a refusal says what is allowed. */
  private static Long wholeLong(String text) {
    try {
      return Long.valueOf(text);
    } catch (NumberFormatException e) {
      throw new CommandLine.TypeConversionException(
          "'" + text + "' is not a whole number from 0 to " + Long.MAX_VALUE);
    }
  }

  private static Duration duration(String text) {
    try {
      return Durations.parse(text);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(e.getMessage());
    }
  }

  /** Without a verb: the usage, as a usage error. */
  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCode.USAGE.code();
  }

  /** The environment. */
  Map<String, String> env() {
    return env;
  }

  /** Whether {@code --json} was given. */
  boolean json() {
    return json;
  }

  /** The {@code --agent} value, else {@code $SLUICE_AGENT_ID}, else {@code null}. */
  String agentOrNull() {
    return Identity.agentOrNull(agent, env);
  }

  /** The {@code --agent} value as given, or {@code null}. */
  String agentOption() {
    return agent;
  }

  /** The {@code --home} value as given, or {@code null}. */
  Path homeOption() {
    return home;
  }

  /** The home this invocation uses. */
  Path homePath() {
    return Home.resolve(home, env);
  }

  /** The gate, opened on first use. */
  GateService gate() {
    if (gate == null) {
      gate = GateService.open(homePath());
    }
    return gate;
  }

  /** Closes the gate if it was opened. */
  void closeGate() {
    GateService g = gate;
    gate = null;
    if (g != null) {
      g.close();
    }
  }
}
