/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.gate.AcquireRequest;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

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
      converter = PoolWeight.Units.class,
      description = "Capacity units (default: 1).")
  int weight;

  /**
   * Reads a number of capacity units; a refusal names the allowed range, which {@link
   * AcquireRequest} checks once the value is read. Stateless and thread-safe.
   */
  static final class Units implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String text) {
      try {
        return Integer.valueOf(text);
      } catch (NumberFormatException e) {
        throw new TypeConversionException(
            "'" + text + "' is not a whole number from 1 to " + AcquireRequest.MAX_WEIGHT);
      }
    }
  }
}
