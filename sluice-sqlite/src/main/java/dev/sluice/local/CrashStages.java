/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
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
 * #AFTER_PULSE} (before the commit), {@link #AFTER_COMMIT} (before the gate is released). Stages of
 * every transaction of a pool, gate home or workflow store: {@link #GATE_CONTENDED} (another
 * process holds the gate) and {@link #GATE_HELD}.
 *
 * <p>A test in this JVM may also {@linkplain #observe observe} the stages its threads reach, with
 * the pool they concern, to wait for one (a thread blocked on a gate that another process holds) or
 * count them (the transactions a waiter ran). Without an observer this costs a volatile read.
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

  /**
   * Another process holds the pool's gate: this thread found it taken and is about to wait for it.
   * Reached only while a stage is asked for or observed, when the gate is first tried without
   * waiting.
   */
  public static final String GATE_CONTENDED = "gate-contended";

  /** The pool's gate is taken by this thread, before its transaction begins. */
  public static final String GATE_HELD = "gate-held";

  /** {@code sluice run}: the command spawned (held back), its permit not yet bound to it. */
  public static final String SPAWNED_BEFORE_BIND = "spawned-before-bind";

  private static final String STOP_AT = System.getProperty("sluice.test.stopAt", "");
  private static final long ARRIVAL = Long.getLong("sluice.test.stopAtArrival", 1);
  private static final AtomicLong ARRIVED = new AtomicLong();
  private static volatile Observer observer;

  private CrashStages() {}

  /** What a test in this JVM learns of the stages reached, on the thread that reaches them. */
  @FunctionalInterface
  public interface Observer {
    /**
     * A thread reached {@code stage}; must be short and must not block.
     *
     * @param stage the stage
     * @param pool the directory of the pool, gate home or store concerned, or null if unknown
     */
    void reached(String stage, Path pool);
  }

  /**
   * Lets {@code o} observe every stage reached in this JVM until the returned handle is closed; one
   * observer at a time.
   *
   * @param o the observer
   * @return closing it stops the observation
   */
  public static AutoCloseable observe(Observer o) {
    observer = java.util.Objects.requireNonNull(o, "observer");
    return () -> observer = null;
  }

  /** Marks that this process reached {@code stage}; stops it if a test asked for that stage. */
  public static void reach(String stage) {
    reach(stage, null);
  }

  /**
   * Marks that this process reached {@code stage} for the pool in {@code pool}; stops it if a test
   * asked for that stage.
   */
  public static void reach(String stage, Path pool) {
    Observer o = observer;
    if (o != null) {
      o.reached(stage, pool);
    }
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

  /**
   * Locks a gate file for the pool in {@code pool}, blocking until no other process holds it. While
   * a stage is asked for or observed, it first tries without waiting, so that a thread that must
   * wait reaches {@link #GATE_CONTENDED} before it does; then {@link #GATE_HELD}.
   *
   * @throws IOException if the lock fails
   */
  static FileLock lockGate(FileChannel channel, Path pool) throws IOException {
    if (observer == null && STOP_AT.isEmpty()) {
      return channel.lock();
    }
    FileLock held = channel.tryLock();
    if (held == null) {
      reach(GATE_CONTENDED, pool);
      held = channel.lock();
    }
    reach(GATE_HELD, pool);
    return held;
  }
}
