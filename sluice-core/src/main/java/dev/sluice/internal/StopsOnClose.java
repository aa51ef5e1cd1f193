/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

/**
 * An accepted managed execution, which a close stops between attempts and keeps from retrying.
 * Implementations must be thread-safe: {@link #closing()} comes from the closing thread.
 */
interface StopsOnClose {
  /** A close began: stop at once if waiting between attempts, else stop retrying. */
  void closing();
}
