/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import dev.sluice.LimiterConfig;
import dev.sluice.spi.AcquireAnswer;
import dev.sluice.spi.ControlView;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolSession;
import dev.sluice.spi.ReportedOutcome;
import java.nio.file.Path;

/**
 * A worker JVM that stands in for managed execution in another process: it holds a lease, and on
 * the test's go reports its attempt as throttled (with a retry-after), printing the cooldown's end.
 */
final class ThrottleWorker {
  private ThrottleWorker() {}

  static void run(Path dir, LimiterConfig config, long retryAfterMillis) throws Exception {
    PoolSession session = SqliteStore.directory(dir).open(config);
    String me = session.ownerId();
    AcquireAnswer a = session.execute(new PoolCommand.Acquire(me, 1, 1, -1, 0)).value();
    LeaseRecord lease = ((AcquireAnswer.Granted) a).lease();
    System.out.println("HELD");
    System.out.flush();
    System.in.read();
    session.execute(
        new PoolCommand.Report(me, lease.id(), ReportedOutcome.THROTTLE, retryAfterMillis));
    ControlView v = session.execute(new PoolCommand.ReadControl(me)).value();
    System.out.println("UNTIL " + v.control().cooldown().until());
    System.out.flush();
    session.retire();
    System.exit(0);
  }
}
