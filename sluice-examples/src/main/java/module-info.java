/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/** Runnable examples of the Sluice API. */
module dev.sluice.examples {
  requires dev.sluice;
  requires dev.sluice.sqlite;
}
