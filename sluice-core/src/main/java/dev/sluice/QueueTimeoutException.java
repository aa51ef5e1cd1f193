/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.time.Duration;
import java.util.Objects;

/**
 * A request's callback did not start within its {@link ScheduleOptions#queueTimeout() queue
 * timeout}, measured from submission. The request was withdrawn: its callback never runs, and a
 * grant that raced the timeout was released.
 *
 * <p>A queue timeout does not prove that nothing was spent: a grant committed in the store just
 * before the timeout fired has already debited its reservoir tokens and spacing slot.
 */
public final class QueueTimeoutException extends SluiceException {
  private static final long serialVersionUID = 1L;

  private final Duration queueTimeout;

  /**
   * Creates the exception.
   *
   * @param pool the pool the request waited for
   * @param queueTimeout the timeout that elapsed
   */
  public QueueTimeoutException(String pool, Duration queueTimeout) {
    super(
        "request to pool '" + pool + "' did not start within its queue timeout of " + queueTimeout);
    this.queueTimeout = Objects.requireNonNull(queueTimeout, "queueTimeout");
  }

  /** Returns the queue timeout that elapsed. */
  public Duration queueTimeout() {
    return queueTimeout;
  }
}
