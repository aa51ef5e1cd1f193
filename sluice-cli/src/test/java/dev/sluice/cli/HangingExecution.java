/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import dev.sluice.ExecuteOptions;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.ScheduleOptions;
import dev.sluice.sqlite.SqliteStore;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * A JVM of its own that starts one managed execution on a SQLite pool and hangs inside its attempt,
 * after printing {@code RUNNING <operation id>}, until the test kills it: the dead owner's
 * operation is then the pool's to report as unconfirmed. With a second argument {@code plain} it
 * hangs inside a plain {@code schedule} instead, after printing {@code RUNNING lease-<lease id>}.
 */
final class HangingExecution {
  private HangingExecution() {}

  /** The configuration every client of the test's pool opens it with. */
  static LimiterConfig config() {
    return LimiterConfig.builder().maxConcurrent(3).build();
  }

  public static void main(String[] args) throws Exception {
    Limiter limiter = Limiter.open(SqliteStore.directory(Path.of(args[0])), config());
    if (args.length > 1 && args[1].equals("plain")) {
      // A plain lease, no execution: the pool names what it leaves after the lease.
      limiter.schedule(
          admission -> {
            System.out.println("RUNNING lease-" + admission.leaseId());
            System.out.flush();
            new CountDownLatch(1).await();
            return "never";
          },
          ScheduleOptions.defaults());
      new CountDownLatch(1).await();
    }
    limiter.execute(
        ctx -> {
          System.out.println("RUNNING " + ctx.operationId());
          System.out.flush();
          new CountDownLatch(1).await();
          return "never";
        },
        ExecuteOptions.builder().noAttemptTimeout().noDeadline().build());
    new CountDownLatch(1).await();
  }
}
