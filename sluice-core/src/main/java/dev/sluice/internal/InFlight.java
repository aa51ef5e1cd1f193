/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

/**
 * Work a limiter counts in flight until it {@link #end() ends}, and whose future a thread may be
 * completing (see {@link CallbackScope#completing}): a request's ticket, or a managed execution,
 * which holds a count of its own between attempts.
 */
interface InFlight {
  /** The limiter that counts it. */
  LimiterImpl owner();

  /** Counts it out of its limiter, once; later calls do nothing. */
  void end();

  /** The work whose future this thread was completing when it began this one's, or null. */
  InFlight outerCompletion();

  /** Records the work whose future this thread was completing when it began this one's. */
  void outerCompletion(InFlight outer);
}
