/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.gate.AcquireRequest;
import picocli.CommandLine.Option;

/**
 * The {@code --pool} and {@code --weight} options of the verbs that ask for capacity ({@code run}
 * and {@code acquire}), declared once and mixed in.
 *
 * <p>Not thread-safe: filled by picocli on the parsing thread.
 */
final class PoolWeight {
  @Option(
      names = "--pool",
      paramLabel = "P",
      defaultValue = AcquireRequest.DEFAULT_POOL,
      description =
          "The pool: one set up with pool set, or ${DEFAULT-VALUE} (made by its first request).")
  String pool;

  @Option(
      names = "--weight",
      paramLabel = "N",
      defaultValue = "1",
      description = "Capacity units (default: 1).")
  int weight;
}
