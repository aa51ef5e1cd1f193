/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An executor that holds each task until the test lets it run on a fresh thread: it models a
 * callback whose delivery is delayed after the grant, so tests can make time pass, or cancel,
 * between grant and start.
 *
 * <p>Thread-safe.
 */
public final class HeldExecutor implements Executor {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition arrived = lock.newCondition();
  private final Deque<Runnable> held = new ArrayDeque<>();

  @Override
  public void execute(Runnable task) {
    lock.lock();
    try {
      held.add(task);
      arrived.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Waits for a held task, then runs it on a new thread and waits for it to return. */
  public void runNext() throws InterruptedException {
    Runnable task;
    lock.lock();
    try {
      long remaining = TimeUnit.SECONDS.toNanos(20);
      while (held.isEmpty()) {
        if (remaining <= 0) {
          throw new AssertionError("no task reached the executor within 20 s");
        }
        remaining = arrived.awaitNanos(remaining);
      }
      task = held.poll();
    } finally {
      lock.unlock();
    }
    Thread t = new Thread(task, "held-executor");
    t.start();
    t.join(TimeUnit.SECONDS.toMillis(20));
  }

  /** How many tasks wait to run. */
  public int heldCount() {
    lock.lock();
    try {
      return held.size();
    } finally {
      lock.unlock();
    }
  }
}
