/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.command.SluiceCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Parsing, help and usage errors, in-process: none of these opens the gate. */
class ParsingTest {
  static final String[] VERBS = {
    "run",
    "submit",
    "logs",
    "wait",
    "acquire",
    "claim",
    "decline",
    "rejoin",
    "cancel",
    "kill",
    "start",
    "mark-started",
    "heartbeat",
    "release",
    "force-release",
    "pending",
    "events",
    "diagnose",
    "status",
    "jobs",
    "pool",
    "config",
    "top",
    "mcp",
    "serve",
    "completion"
  };

  /** Verbs that --help leaves out: the runner of a submitted job, which submit starts. */
  static final String[] HIDDEN = {"job-runner"};

  @TempDir Path home;

  record Run(int exit, String out, String err) {}

  Run sluice(Map<String, String> env, String... args) {
    // As main does it: only the verb the arguments name is built.
    CommandLine cl = SluiceCommand.commandLine(env, args);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int exit = cl.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  Run sluice(String... args) {
    return sluice(Map.of("SLUICE_HOME", home.toString()), args);
  }

  @Test
  void helpListsEveryVerbWithOneLineAndTheExitCodes() {
    Run r = sluice("--help");
    assertThat(r.exit()).isZero();
    for (String verb : VERBS) {
      assertThat(r.out()).containsPattern("(?m)^  " + verb + " +\\S");
    }
    assertThat(r.out()).contains("Exit status:").contains("124").contains("SLUICE_AGENT_ID");
    for (String verb : HIDDEN) {
      assertThat(r.out()).doesNotContainPattern("(?m)^  " + verb + " ");
    }
  }

  @Test
  void onlyTheNamedVerbIsBuiltAndOptionValuesAreNotTakenForVerbs() {
    assertThat(
            SluiceCommand.commandLine(Map.of(), new String[] {"run", "--", "true"})
                .getSubcommands())
        .containsOnlyKeys("run");
    assertThat(
            SluiceCommand.commandLine(
                    Map.of(), new String[] {"--home", "run", "--agent", "top", "--json", "status"})
                .getSubcommands())
        .containsOnlyKeys("status");
    String[] all =
        java.util.stream.Stream.concat(
                java.util.Arrays.stream(VERBS), java.util.Arrays.stream(HIDDEN))
            .toArray(String[]::new);
    assertThat(SluiceCommand.commandLine(Map.of(), new String[] {"--help"}).getSubcommands())
        .containsOnlyKeys(all);
    assertThat(SluiceCommand.commandLine(Map.of(), new String[] {"no-such-verb"}).getSubcommands())
        .containsOnlyKeys(all);
  }

  @Test
  void everyVerbHasHelp() {
    for (String verb : VERBS) {
      Run r = sluice(verb, "--help");
      assertThat(r.exit()).as(verb).isZero();
      assertThat(r.out()).as(verb).contains("Usage: sluice " + verb);
    }
  }

  @Test
  void versionNamesTheProject() {
    Run r = sluice("--version");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("sluice ").doesNotContain("unknown");
    assertThat(r.out()).containsPattern("\\(commit [0-9a-f]{12}, built \\d{4}-\\d\\d-\\d\\dT");
  }

  @Test
  void badDurationIsAUsageErrorNamingOptionValueAndForms() {
    Run r = sluice("run", "--queue-timeout", "5 minutes", "--", "true");
    assertThat(r.exit()).as("every usage error of run is 125").isEqualTo(125);
    assertThat(r.err()).contains("--queue-timeout").contains("5 minutes").contains("500ms, 30s");
  }

  @Test
  void aNegativeEventCountOfTopIsAUsageErrorNamingOptionAndValue() {
    Run r = sluice("top", "--events=-1");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("--events must be 0 or more, was -1");
  }

  @Test
  void badDurationWithJsonAlsoAnswersJson() {
    Run r = sluice("--json", "pending", "--wait", "soon");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).startsWith("{\"error\":\"usage\"").contains("--wait");
  }

  @Test
  void missingAgentNamesTheFlagAndTheVariable() {
    Run r = sluice("acquire", "--op", "k1");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("--agent").contains("SLUICE_AGENT_ID");
  }

  @Test
  void agentMayComeFromTheEnvironmentOrAfterTheVerb() {
    // A bad weight is refused before the gate is opened; reaching it proves the agent was found.
    Run fromEnv =
        sluice(
            Map.of("SLUICE_HOME", home.toString(), "SLUICE_AGENT_ID", "a1"),
            "acquire",
            "--op",
            "k",
            "--weight",
            "0");
    assertThat(fromEnv.exit()).isEqualTo(2);
    assertThat(fromEnv.err()).contains("weight must be between 1 and");
    Run afterVerb = sluice("acquire", "--op", "k", "--agent", "a1", "--weight", "0");
    assertThat(afterVerb.err()).contains("weight must be between 1 and");
  }

  @Test
  void unknownVerbOrFlagOrNoVerbIsAUsageError() {
    assertThat(sluice("frobnicate").exit()).isEqualTo(2);
    assertThat(sluice("status", "--frob").exit()).isEqualTo(2);
    assertThat(sluice().exit()).isEqualTo(2);
    assertThat(sluice("pool").exit()).isEqualTo(2);
    assertThat(sluice("run").exit()).as("run's own usage errors are 125").isEqualTo(125);
  }

  @Test
  void aNumberOutOfRangeSaysWhatIsAllowed() {
    Run r = sluice("pool", "set", "p", "--capacity", "99999999999");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .contains("--capacity", "'99999999999' is not a whole number from 1 to 1000000");
  }

  @Test
  void runPassesCommandOptionsThrough() {
    // Without "--", everything after the first word of CMD still belongs to CMD.
    CommandLine cl = SluiceCommand.commandLine(Map.of());
    CommandLine.ParseResult parsed = cl.parseArgs("run", "--pool", "p", "make", "-j4", "--json");
    CommandLine.ParseResult run = parsed.subcommand();
    assertThat(run.matchedPositional(0).<java.util.List<String>>getValue())
        .containsExactly("make", "-j4", "--json");
  }
}
