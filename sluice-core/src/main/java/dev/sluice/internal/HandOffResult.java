/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

/** What {@link Ticket#handOff} did with a unit released in this JVM. */
enum HandOffResult {
  /** The request took the unit before its acquire was sent: the store never sees it. */
  HANDED_OFF,
  /** The request took the unit, and the store still has it queued: a withdrawal must follow. */
  HANDED_OFF_CLEANUP,
  /** The request was granted or withdrawn first; the unit is still free. */
  NOT_HANDED_OFF
}
