/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

/**
 * What a held permit's owner has said about its work, which decides how the permit ends on its own.
 */
public enum PermitPhase {
  /** Granted or claimed, work not started: reclaimed at its start deadline. */
  CLAIMED,
  /** Bound to a process group: ends when every process of the group has exited. */
  RUNNING_TRACKED,
  /** Started without a process to watch: ends when its lease runs out without a heartbeat. */
  RUNNING_UNTRACKED
}
