/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench;

import dev.failsafe.function.CheckedSupplier;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The "empty" task every limiter benchmark runs, exactly as in the peer baselines: {@code
 * Blackhole.consumeCPU(10); return 42;}. The {@code direct} rows run it with no limiter, so a
 * limiter's overhead is its row minus {@code direct}.
 *
 * <p>The same task is offered as a {@link Callable}, a {@link Supplier} and a Failsafe {@link
 * CheckedSupplier}, each one a constant, so that no row pays for allocating its lambda. Stateless
 * and thread-safe; never blocks.
 */
public final class Task {
  /** The task as a {@link Callable}, for Sluice, Resilience4j and the caller-thread rows. */
  public static final Callable<Integer> CALLABLE = Task::run;

  /** The task as a {@link Supplier}, for {@code CompletableFuture.supplyAsync}. */
  public static final Supplier<Integer> SUPPLIER = Task::run;

  /** The task as a Failsafe {@link CheckedSupplier}. */
  public static final CheckedSupplier<Integer> CHECKED = Task::run;

  private Task() {}

  /**
   * Burns a few CPU cycles and returns 42.
   *
   * @return 42
   */
  public static Integer run() {
    Blackhole.consumeCPU(10);
    return 42;
  }
}
