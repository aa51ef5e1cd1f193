/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import dev.sluice.AttemptOutcome;
import dev.sluice.BreakerPolicy;
import dev.sluice.ExecuteOptions;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterEvent;
import dev.sluice.LimiterOptions;
import dev.sluice.RecoveryPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A worker JVM that runs managed executions on a pool, for {@link ExecutionProcessTest}. Every mode
 * opens the pool with {@link #config}; lines go to stdout, one per event.
 *
 * <ul>
 *   <li>{@code execDrain <dir>}: drains, prints {@code DRAINED <generation>}, closes, exits.
 *   <li>{@code execHang <dir>}: executes a task that prints {@code RUNNING <operationId>} and never
 *       returns, for the test to kill.
 *   <li>{@code execThrottle <dir> <retryAfterMillis>}: executes a task that prints {@code HELD} and
 *       returns on the test's line; the attempt is classified a throttle with that retry-after;
 *       prints {@code UNTIL <cooldown end in epoch ms>}, closes, exits.
 *   <li>{@code execFail <dir>}: executes one attempt classified a service failure, prints {@code
 *       FAILED}, closes, exits.
 *   <li>{@code execProbe <dir>}: executes a task that prints {@code STARTED} and returns on the
 *       test's line, classified a success; prints {@code QUEUED} if its attempt waits in the pool,
 *       and {@code DONE} at the end; closes, exits.
 * </ul>
 */
final class ExecuteWorker {
  private ExecuteWorker() {}

  /** Every client of the pool: capacity 1 and a breaker that opens after 2 failures for 2 s. */
  static LimiterConfig config() {
    return LimiterConfig.builder()
        .maxConcurrent(1)
        .recovery(
            RecoveryPolicy.builder()
                .breaker(
                    BreakerPolicy.consecutive()
                        .failureThreshold(2)
                        .initialPause(Duration.ofSeconds(2))
                        .build())
                .build())
        .build();
  }

  static void run(String[] args) throws Exception {
    Path dir = Path.of(args[1]);
    LimiterOptions options =
        LimiterOptions.builder()
            .listener(
                e -> {
                  if (e.kind() == LimiterEvent.Kind.QUEUED) {
                    say("QUEUED");
                  }
                })
            .build();
    Limiter limiter = Limiter.open(SqliteStore.directory(dir), config(), options);
    switch (args[0]) {
      case "execDrain" -> say("DRAINED " + limiter.maintenance().drain().generation());
      case "execHang" -> {
        limiter.execute(
            ctx -> {
              say("RUNNING " + ctx.operationId());
              new CountDownLatch(1).await();
              return "never";
            },
            ExecuteOptions.builder().noAttemptTimeout().noDeadline().build());
        new CountDownLatch(1).await();
      }
      case "execThrottle" -> {
        Duration retryAfter = Duration.ofMillis(Long.parseLong(args[2]));
        limiter.call(
            ctx -> {
              say("HELD");
              System.in.read();
              return "throttled";
            },
            ExecuteOptions.builder()
                .classifier((r, f) -> AttemptOutcome.throttle(retryAfter))
                .build());
        say("UNTIL " + limiter.maintenance().status().cooldownUntil().orElseThrow().toEpochMilli());
      }
      case "execFail" -> {
        limiter.call(
            ctx -> "failed",
            ExecuteOptions.builder().classifier((r, f) -> AttemptOutcome.serviceFailure()).build());
        say("FAILED");
      }
      case "execProbe" -> {
        limiter.call(
            ctx -> {
              say("STARTED");
              System.in.read();
              return "probed";
            },
            ExecuteOptions.builder()
                .classifier(
                    (r, f) -> f == null ? AttemptOutcome.success() : AttemptOutcome.neutral())
                .noAttemptTimeout()
                .noDeadline()
                .build());
        say("DONE");
      }
      default -> throw new IllegalArgumentException("unknown mode " + args[0]);
    }
    limiter.close();
    System.exit(0);
  }

  private static void say(String line) {
    synchronized (System.out) {
      System.out.println(line);
      System.out.flush();
    }
  }
}
