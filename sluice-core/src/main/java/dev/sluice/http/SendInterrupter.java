/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

/**
 * Stops an attempt's blocking {@code HttpClient.send} when the attempt is cancelled, by
 * interrupting the attempt's thread (the client then cancels the exchange), but only while that
 * send runs: the thread belongs to the limiter's executor, so no interrupt may reach the code it
 * runs next, and one that came is cleared when the send ends.
 *
 * <p>The send is blocking rather than {@code sendAsync} because the JDK completes a {@code
 * sendAsync} future on {@code CompletableFuture}'s default executor: a hop through the common pool,
 * or a new thread per call where that pool has one thread (two CPUs or fewer), which cost about 0.5
 * to 2 ms a call on a loopback server (BENCHMARKS.md, issue 16).
 *
 * <p>Thread-safe: made on the attempt's thread, {@link #interrupt} from any thread.
 */
final class SendInterrupter {
  private final Thread thread = Thread.currentThread();

  // Guarded by this.
  private boolean sending = true;
  private boolean interrupted;

  /** Interrupts the send if it still runs. */
  synchronized void interrupt() {
    if (sending) {
      interrupted = true;
      thread.interrupt();
    }
  }

  /**
   * Called by the attempt's thread when the send returned or threw: no interrupt comes after it,
   * and one that came is cleared from the thread.
   *
   * @return whether the send was interrupted by {@link #interrupt}
   */
  boolean ended() {
    boolean ours;
    synchronized (this) {
      sending = false;
      ours = interrupted;
    }
    if (ours) {
      // The send may have returned before the interrupt landed: it must not outlive the attempt.
      Thread.interrupted();
    }
    return ours;
  }
}
