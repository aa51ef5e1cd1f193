/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The rounds of the cross-process wake measurement, the same on every store: worker A holds every
 * unit, worker B asks for them, A releases, and the round records A's time before its release to
 * B's admission, and how long A's release call took.
 *
 * <p>Not thread-safe: one run at a time. Blocks until the rounds end and both workers said bye.
 */
final class WakeRounds {
  private static final Duration START = Duration.ofSeconds(60);

  private WakeRounds() {}

  /**
   * What the recorded rounds measured, in microseconds.
   *
   * @param wake A's time before its release to B's admission, a round each
   * @param releaseCalls how long A's release call took, a round each
   */
  record Samples(List<Long> wake, List<Long> releaseCalls) {}

  /**
   * How a run goes.
   *
   * @param cap every unit of the pool
   * @param warmup rounds run first and not recorded
   * @param rounds recorded rounds
   * @param queueVisible whether A can tell that B is queued ({@code waiters 1}); otherwise the
   *     round waits {@code unseenQueueMillis} for B's request to start
   * @param unseenQueueMillis see {@code queueVisible}
   * @param settleMillis the pause before the release once B waits
   * @param reply how long any one answer of a worker may take
   */
  record Plan(
      int cap,
      int warmup,
      int rounds,
      boolean queueVisible,
      long unseenQueueMillis,
      long settleMillis,
      Duration reply) {}

  /**
   * Runs the rounds on two started workers and tells them to exit.
   *
   * @return the recorded rounds' samples
   * @throws Exception if a worker fails or does not answer in time
   */
  static Samples run(Child a, Child b, Plan plan) throws Exception {
    Duration reply = plan.reply();
    a.expect("ready", START);
    b.expect("ready", START);
    List<Long> wake = new ArrayList<>();
    List<Long> releaseCalls = new ArrayList<>();
    for (int round = 0; round < plan.warmup() + plan.rounds(); round++) {
      a.send("acquire " + plan.cap());
      a.expect("acquired", reply);
      b.send("acquire " + plan.cap());
      if (plan.queueVisible()) {
        a.send("waiters 1");
        a.expect("waiters", reply);
      } else {
        // The naive semaphore has no queue to look at: a fixed head start for B's first try.
        Thread.sleep(plan.unseenQueueMillis());
      }
      Thread.sleep(plan.settleMillis());
      a.send("release");
      long[] released = a.expectNumbers("released", reply);
      long admitted = b.expectNumbers("acquired", reply)[0];
      b.send("release");
      b.expect("released", reply);
      if (round >= plan.warmup()) {
        wake.add(admitted - released[0]);
        releaseCalls.add(released[1] - released[0]);
      }
    }
    a.send("exit");
    b.send("exit");
    a.expect("bye", reply);
    b.expect("bye", reply);
    return new Samples(wake, releaseCalls);
  }
}
