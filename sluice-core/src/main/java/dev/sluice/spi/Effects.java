/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import java.util.ArrayList;
import java.util.List;

/**
 * What a command did besides its own answer: leases it granted to waiters (of any owner) and queued
 * requests it ended. Lists are created only when needed; the common admission allocates none.
 *
 * <p>Not thread-safe: lives for one command.
 */
final class Effects {
  private List<LeaseRecord> grants = List.of();
  private List<EndedRequest> ended = List.of();

  void granted(LeaseRecord lease) {
    if (grants.isEmpty()) {
      grants = new ArrayList<>(2);
    }
    grants.add(lease);
  }

  /** Reports a lease as granted unless it already is: a sync re-reports grants a pump made. */
  void grantedOnce(LeaseRecord lease) {
    if (!grants.contains(lease)) {
      granted(lease);
    }
  }

  void ended(EndedRequest request) {
    if (ended.isEmpty()) {
      ended = new ArrayList<>(2);
    }
    ended.add(request);
  }

  List<LeaseRecord> grants() {
    return grants;
  }

  List<EndedRequest> ended() {
    return ended;
  }
}
