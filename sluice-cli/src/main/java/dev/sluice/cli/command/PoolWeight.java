/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.GateService;
import java.util.function.Supplier;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
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
          "The pool: one set up with pool set, or ${DEFAULT-VALUE} (made by its first request);"
              + " without --pool, default.pool of the gate's configuration (sluice config).")
  String pool;

  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  /**
   * The request in the pool asked for: {@code --pool} as given (even {@code --pool default}), else
   * the gate's configured default pool, which the gate checks like any other when the request uses
   * it. The request is built (and so checked) first, before the gate is opened.
   */
  AcquireRequest inPool(AcquireRequest checked, Supplier<GateService> gate) {
    return poolOrNull() != null ? checked : inPool(checked, gate.get().defaultPool());
  }

  /** The {@code --pool} value as given, or {@code null} for the gate's configured default pool. */
  String poolOrNull() {
    return mixee.commandLine().getParseResult().hasMatchedOption("--pool") ? pool : null;
  }

  /** {@code r} for {@code pool} instead. */
  static AcquireRequest inPool(AcquireRequest r, String pool) {
    return new AcquireRequest(r.agentId(), r.opKey(), pool, r.weight(), r.label(), r.reason());
  }

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
