/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.LimiterEvent;
import dev.sluice.OwnerLostException;

/**
 * Why a request was withdrawn: a failure its future or waiting thread reports, or the action of a
 * caller who completed the request's future from outside (which then completes it that way).
 */
sealed interface WithdrawReason {
  /** The request fails with {@code cause}. */
  record Failure(Throwable cause) implements WithdrawReason {}

  /** A caller completed the future ({@code cancel}, {@code complete}, ...); this action does it. */
  record CallerCompletion(Runnable action) implements WithdrawReason {}

  /** The event that reports a withdrawal for {@code why}: a lost owner has its own. */
  static LimiterEvent.Kind eventOf(WithdrawReason why) {
    return why instanceof Failure f && f.cause() instanceof OwnerLostException
        ? LimiterEvent.Kind.OWNER_LOST
        : LimiterEvent.Kind.WITHDRAWN;
  }
}
