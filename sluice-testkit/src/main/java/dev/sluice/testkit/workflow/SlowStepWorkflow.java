/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import dev.sluice.workflow.Workflow;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A workflow whose first step, {@code slow}, signals {@link #entered} and blocks until {@link
 * #release} opens, followed by a step {@code next} that returns its prefix and how often it ran:
 * the fixture of the suite's cases about what happens while a step body runs (a close, a deadline).
 *
 * <p>Thread-safe: the latches and counters are.
 */
final class SlowStepWorkflow {
  final CountDownLatch entered = new CountDownLatch(1);
  final CountDownLatch release = new CountDownLatch(1);
  final AtomicInteger slowRuns = new AtomicInteger();
  final AtomicInteger nextRuns = new AtomicInteger();
  final Workflow<String, String> workflow;

  SlowStepWorkflow(String name, String nextPrefix) {
    workflow =
        Workflow.define(
            name,
            String.class,
            String.class,
            (ctx, in) -> {
              String s =
                  ctx.step(
                      "slow",
                      String.class,
                      () -> {
                        slowRuns.incrementAndGet();
                        entered.countDown();
                        WorkflowCase.await(release);
                        return "slow";
                      });
              return s
                  + ctx.step("next", String.class, () -> nextPrefix + nextRuns.incrementAndGet());
            });
  }
}
