/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import dev.sluice.cli.command.QuickRun;
import dev.sluice.cli.command.SluiceCommand;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The {@code sluice} command's entry point: runs one invocation and exits with its status (see
 * {@link ExitCode}). It only parses, prints and spawns; every gate decision is {@link
 * dev.sluice.gate.GateService}'s. Blocks for as long as the verb does.
 */
public final class Sluice {
  private Sluice() {}

  /**
   * Runs {@code sluice} with {@code args} and exits.
   *
   * @param args the command line
   */
  public static void main(String[] args) {
    Map<String, String> env = System.getenv();
    // The plain forms of "sluice run" skip picocli, most of the cost of a short call.
    OptionalInt quick = QuickRun.execute(env, args);
    int status =
        quick.isPresent() ? quick.getAsInt() : SluiceCommand.commandLine(env, args).execute(args);
    System.exit(status);
  }
}
