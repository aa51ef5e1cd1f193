/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import org.junit.jupiter.api.Nested;

/**
 * The limiter conformance suite: every store subclasses it, supplies its {@link StoreFactory}, and
 * must pass every case unchanged. Cases a store cannot run (a server clock instead of the manual
 * one) show as skipped assumptions, never as passes.
 *
 * <pre>{@code
 * class MemoryStoreConformanceTest extends LimiterConformanceSuite {
 *   @Override
 *   protected StoreFactory stores() {
 *     return (name, clock) -> MemoryStore.named(name, clock);
 *   }
 * }
 * }</pre>
 */
public abstract class LimiterConformanceSuite {
  /** Returns the store under test. */
  protected abstract StoreFactory stores();

  /** Weighted max-concurrency. */
  @Nested
  class Concurrency extends ConcurrencyCases {
    Concurrency() {
      super(stores());
    }
  }

  /** Spacing between admissions. */
  @Nested
  class Spacing extends SpacingCases {
    Spacing() {
      super(stores());
    }
  }

  /** The token reservoir. */
  @Nested
  class Reservoir extends ReservoirCases {
    Reservoir() {
      super(stores());
    }
  }

  /** Leases and expiry. */
  @Nested
  class Leases extends LeaseCases {
    Leases() {
      super(stores());
    }
  }

  /** Waiting order, queue timeouts and the blocking forms. */
  @Nested
  class Queue extends QueueCases {
    Queue() {
      super(stores());
    }
  }

  /** Withdrawal by completing the future. */
  @Nested
  class Cancellation extends CancellationCases {
    Cancellation() {
      super(stores());
    }
  }

  /** Closing and draining. */
  @Nested
  class Closing extends CloseCases {
    Closing() {
      super(stores());
    }
  }

  /** Configuration equality and validation. */
  @Nested
  class Config extends ConfigCases {
    Config() {
      super(stores());
    }
  }

  /** Local hand-offs of released units. */
  @Nested
  class HandOff extends HandOffCases {
    HandOff() {
      super(stores());
    }
  }

  /** Store failures. */
  @Nested
  class Failure extends FailureCases {
    Failure() {
      super(stores());
    }
  }

  /** Real threads and time. */
  @Nested
  class Threads extends ThreadedCases {
    Threads() {
      super(stores());
    }
  }

  /** No polling: computed deadlines only. */
  @Nested
  class Timers extends TimerCases {
    Timers() {
      super(stores());
    }
  }
}
