/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * {@link QuickRun} against picocli, in-process: every command line the quick parser takes, picocli
 * reads the same way; everything else it leaves to picocli.
 */
class QuickRunTest {
  static List<List<String>> taken() {
    return List.of(
        List.of("run", "--", "true"),
        List.of("run", "true"),
        List.of("run", "make", "-j4", "--pool", "q"),
        List.of("--home", "/h", "run", "--", "true"),
        List.of(
            "--home=/h",
            "--json",
            "--agent",
            "a",
            "run",
            "--pool",
            "p",
            "--weight",
            "3",
            "--queue-timeout",
            "30s",
            "--label",
            "my label",
            "--reason",
            "why",
            "--op",
            "k1",
            "--",
            "sh",
            "-c",
            "echo 'a b'"),
        List.of("--home", "status", "run", "--", "true"),
        List.of("run", "--json", "--agent=b", "--home", "/x", "--", "true"),
        List.of("run", "--pool=p", "--weight=0", "--queue-timeout=PT1S", "--", "--pool", "z"),
        List.of("--agent", "a", "run", "--op", "k", "--label=l=2", "--", "echo", "-", ""),
        List.of("run", "--queue-timeout", "1.5m", "--weight", "999999999", "--", "a"));
  }

  static List<List<String>> left() {
    return List.of(
        List.of("--help"),
        List.of("run", "--help"),
        List.of("run", "-h", "--", "x"),
        List.of("-V", "run", "--", "x"),
        List.of("status"),
        List.of("acquire", "--pool", "p"),
        List.of("run"),
        List.of("run", "--"),
        List.of("run", "--pool"),
        List.of("run", "--pool=", "--", "x"),
        List.of("run", "--pool", "a", "--pool", "b", "--", "x"),
        List.of("--json", "run", "--json", "--", "x"),
        List.of("run", "--weight", "010", "--", "x"),
        List.of("run", "--weight", "+1", "--", "x"),
        List.of("run", "--weight", "x", "--", "x"),
        List.of("run", "--weight", "9999999999", "--", "x"),
        List.of("run", "--queue-timeout", "soon", "--", "x"),
        List.of("run", "--label", "-x", "--", "y"),
        List.of("run", "--", "curl", "-d", "@file"),
        List.of("@args"),
        List.of("run", "--frobnicate", "--", "x"),
        List.of("--pool", "p", "run", "--", "x"),
        List.of("run", "--", "a", "--", "b"),
        List.of("run", "make", "--", "b"),
        List.of("--home", "run", "run", "--", "true"),
        List.of("run", "--label", "run", "--", "true"),
        List.of("run", "", "x"),
        List.of("--json=true", "run", "--", "x"),
        List.of("--", "run", "x"),
        List.of("run", "--home", "/a\0b", "--", "x"));
  }

  @ParameterizedTest
  @MethodSource("taken")
  void whatTheQuickParserTakesPicocliReadsTheSameWay(List<String> words) {
    String[] args = words.toArray(String[]::new);
    Optional<RunArgs> quick = QuickRun.parse(args);
    assertThat(quick).as("taken: %s", words).isPresent();
    assertThat(quick).contains(picocli(args));
  }

  @ParameterizedTest
  @MethodSource("left")
  void everythingElseIsLeftToPicocli(List<String> words) {
    assertThat(QuickRun.parse(words.toArray(String[]::new))).as("left: %s", words).isEmpty();
  }

  /** The run picocli reads from {@code args}, as {@link RunCommand#execute} would use it. */
  private static RunArgs picocli(String[] args) {
    CommandLine cl = SluiceCommand.commandLine(Map.of(), args);
    ParseResult parsed = cl.parseArgs(args);
    return ((RunCommand) parsed.subcommand().commandSpec().userObject()).args();
  }
}
