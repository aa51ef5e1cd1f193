/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What one {@code sluice run} was asked to do, however its command line was parsed (by picocli in
 * {@link RunCommand} or by {@link QuickRun}).
 *
 * @param home the {@code --home} value, or {@code null}
 * @param json whether {@code --json} was given
 * @param quiet whether {@code --quiet} was given: no wait lines off a terminal
 * @param agent the {@code --agent} value, or {@code null}
 * @param pool the {@code --pool} value, or {@code null} for the gate's configured default pool
 * @param weight the weight
 * @param queueTimeout the {@code --queue-timeout} value, or {@code null} for none
 * @param label the {@code --label} value, or {@code null} for the command
 * @param reason why it runs, {@code ""} if not said
 * @param op the {@code --op} value, or {@code null} for one unique to this run
 * @param command the command and its arguments, not empty
 */
record RunArgs(
    Path home,
    boolean json,
    boolean quiet,
    String agent,
    String pool,
    int weight,
    Duration queueTimeout,
    String label,
    String reason,
    String op,
    List<String> command) {
  /** Copies the command. */
  RunArgs {
    command = List.copyOf(command);
  }
}
