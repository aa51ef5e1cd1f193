/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A test-only hook: with the system property {@code sluice.test.stopAt} set to a stage name, the
 * process prints {@code STOPPING <stage>} on standard output the first time it reaches that stage,
 * then holds there until a line arrives on standard input. The test, having read that line, knows
 * the process is exactly at the stage: it can SIGSTOP it, SIGKILL it, or let it go on (SIGCONT and
 * a line). Without the property it does nothing. With {@code sluice.test.stopAtArrival} set to N,
 * it holds the Nth time instead of the first, so a test can stop a process in the middle of its
 * work rather than at its first transaction.
 *
 * <p>Stages of a writing transaction, all under the gate: {@link #BEFORE_PULSE}, {@link
 * #AFTER_PULSE} (before the commit), {@link #AFTER_COMMIT} (before the gate is released).
 *
 * <p>Thread-safe.
 */
public final class CrashStages {
  /** Written, not yet pulsed. */
  public static final String BEFORE_PULSE = "before-pulse";

  /** Pulsed, not yet committed. */
  public static final String AFTER_PULSE = "after-pulse";

  /** Committed, the gate still held. */
  public static final String AFTER_COMMIT = "after-commit";

  /** {@code sluice run}: the command spawned (held back), its permit not yet bound to it. */
  public static final String SPAWNED_BEFORE_BIND = "spawned-before-bind";

  private static final String STOP_AT = System.getProperty("sluice.test.stopAt", "");
  private static final long ARRIVAL = Long.getLong("sluice.test.stopAtArrival", 1);
  private static final AtomicLong ARRIVED = new AtomicLong();

  private CrashStages() {}

  /** Marks that this process reached {@code stage}; stops it if a test asked for that stage. */
  public static void reach(String stage) {
    if (STOP_AT.isEmpty() || !STOP_AT.equals(stage) || ARRIVED.incrementAndGet() != ARRIVAL) {
      return;
    }
    System.out.println("STOPPING " + stage);
    System.out.flush();
    try {
      System.in.read();
    } catch (IOException e) {
      throw new IllegalStateException("cannot hold at stage " + stage, e);
    }
  }
}
