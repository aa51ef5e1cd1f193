/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.ConfigOutput;
import dev.sluice.cli.ExitCode;
import dev.sluice.cli.GateJson;
import dev.sluice.gate.ConfigChange;
import dev.sluice.gate.ConfigEntry;
import dev.sluice.gate.ConfigProblem;
import dev.sluice.gate.ConfigView;
import dev.sluice.gate.GateConfiguration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code config get|set|unset|history}: the gate's configuration file in its home, shown with each
 * value's source, changed key by key with a recorded history, and repaired. These verbs work while
 * the file has lines the gate cannot use (every other verb then refuses to run), so that they can
 * be seen and fixed. Not thread-safe: one invocation, one thread.
 */
@Command(
    name = "config",
    header = "Show or change the gate's configuration (default pool, capacity, timings).",
    mixinStandardHelpOptions = true,
    description =
        "config get [KEY]; config set KEY VALUE [--reason R]; config unset KEY; config history"
            + " [KEY]. The configuration is the file config.properties in the home, one 'key ="
            + " value' per line; every gate command uses it, and refuses to run (exit 4, error"
            + " config) while it has a line the gate cannot use.",
    subcommands = {
      ConfigCommand.Get.class,
      ConfigCommand.Set.class,
      ConfigCommand.Unset.class,
      ConfigCommand.History.class
    })
final class ConfigCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  /** Without a verb: a usage error. */
  @Override
  public Integer call() {
    throw new ParameterException(
        spec.commandLine(), "config needs a verb: get, set, unset or history");
  }

  /** What the {@code config} verbs share: the configuration, opened for the call and closed. */
  abstract static class ConfigVerb extends Verb {
    abstract int execute(GateConfiguration config) throws Exception;

    @Override
    final int execute() throws Exception {
      try (GateConfiguration config = GateConfiguration.open(root().homePath())) {
        return execute(config);
      }
    }

    /**
     * Prints a change made by {@code set} or {@code unset}, and on stderr each line of the file the
     * gate still cannot use (with {@code --json}, also in the answer's {@code problems}).
     */
    int printed(GateConfiguration config, ConfigChange c) {
      ConfigView left = config.view();
      print(
          ConfigOutput.change(c)
              .set("problems", GateJson.array(left.problems(), ConfigOutput::problem)),
          ConfigOutput.changeText(c, left.file()));
      for (ConfigProblem p : left.problems()) {
        err().println("warning: config: " + p.describe(left.file()));
      }
      if (!left.problems().isEmpty()) {
        err()
            .println(
                "warning: every gate command but sluice config refuses to run until these are fixed");
      }
      err().flush();
      return ExitCode.OK.code();
    }
  }

  /** {@code config get}: every key (or one) with its value and source, and the file's problems. */
  @Command(
      name = "get",
      header = "Show every key (or KEY) with its value and where it comes from.",
      mixinStandardHelpOptions = true,
      description =
          "Prints 'key = value  # source' lines, a valid configuration file; with --json"
              + " {\"file\", \"entries\": [{\"key\", \"value\", \"source\", \"line\"?, \"problem\"?,"
              + " \"default\", \"allowed\", \"description\"}], \"problems\": [...]}. Exits 4 while"
              + " the file has lines the gate cannot use, each named on stderr.")
  static final class Get extends ConfigVerb {
    @Parameters(arity = "0..1", paramLabel = "KEY", description = "Only this key.")
    String key;

    @Override
    int execute(GateConfiguration config) {
      if (key != null) {
        GateConfiguration.requireKey(key);
      }
      ConfigView view = config.view();
      List<ConfigEntry> shown =
          view.entries().stream().filter(e -> key == null || e.key().equals(key)).toList();
      print(ConfigOutput.view(view, shown), ConfigOutput.viewText(view, shown));
      for (ConfigProblem p : view.problems()) {
        err().println("error: config: " + p.describe(view.file()));
      }
      err().flush();
      return (view.problems().isEmpty() ? ExitCode.OK : ExitCode.STORE).code();
    }
  }

  /** {@code config set}: sets one key, recorded in the history. */
  @Command(
      name = "set",
      header = "Set KEY to VALUE, checked first and kept in the history.",
      mixinStandardHelpOptions = true,
      description =
          "Set KEY to VALUE in the configuration file, checked first (a refusal changes"
              + " nothing), and record who, when, old and new value and --reason. Every gate"
              + " command uses it from then on, waiting ones included.")
  static final class Set extends ConfigVerb {
    @Parameters(index = "0", paramLabel = "KEY", description = "The key (config get lists them).")
    String key;

    @Parameters(index = "1", paramLabel = "VALUE", description = "The value.")
    String value;

    @Option(names = "--reason", paramLabel = "R", description = "Why, kept in the history.")
    String reason = "";

    @Override
    int execute(GateConfiguration config) {
      return printed(config, config.set(key, value, actor(), reason));
    }
  }

  /** {@code config unset}: back to the default, recorded in the history. */
  @Command(
      name = "unset",
      header = "Remove KEY from the file: it takes its default again.",
      mixinStandardHelpOptions = true,
      description =
          "Remove KEY's line from the configuration file, so it takes its default again, and"
              + " record it in the history. Also removes a line with an unknown key.")
  static final class Unset extends ConfigVerb {
    @Parameters(paramLabel = "KEY", description = "The key.")
    String key;

    @Option(names = "--reason", paramLabel = "R", description = "Why, kept in the history.")
    String reason = "";

    @Override
    int execute(GateConfiguration config) {
      return printed(config, config.unset(key, actor(), reason));
    }
  }

  /** {@code config history}: every change, oldest first. */
  @Command(
      name = "history",
      header = "Every configuration change (or KEY's): when, old -> new, who, why.",
      mixinStandardHelpOptions = true,
      description =
          "Every configuration change, oldest first: by config set, config unset, or an edit of"
              + " the file by hand (recorded by the next gate command). With --json"
              + " {\"history\": [{\"at\", \"key\", \"via\", \"oldValue\", \"oldSource\","
              + " \"newValue\", \"newSource\", \"actor\", \"reason\", \"changed\"}]}.")
  static final class History extends ConfigVerb {
    @Parameters(arity = "0..1", paramLabel = "KEY", description = "Only this key's changes.")
    String key;

    @Override
    int execute(GateConfiguration config) {
      if (key != null) {
        GateConfiguration.requireKey(key);
      }
      List<ConfigChange> changes =
          config.history().stream().filter(c -> key == null || c.key().equals(key)).toList();
      List<String> text = changes.stream().map(ConfigOutput::historyLine).toList();
      print(
          GateJson.object().set("history", GateJson.array(changes, ConfigOutput::change)),
          text.isEmpty() ? List.of("no configuration changes yet") : text);
      return ExitCode.OK.code();
    }
  }
}
