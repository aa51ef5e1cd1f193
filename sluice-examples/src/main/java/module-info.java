/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/** Runnable examples of the Sluice API. */
module dev.sluice.examples {
  requires dev.sluice;
  requires dev.sluice.sqlite;
  requires dev.sluice.workflow.sqlite;

  // The workflow codec (Jackson) reads and writes the example's records.
  opens dev.sluice.examples to
      com.fasterxml.jackson.databind;
}
