/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import org.junit.jupiter.api.Nested;

/**
 * The limiter conformance suite: every store subclasses it, supplies its {@link StoreFactory}, and
 * must pass every case unchanged, on the suite's manual clock. A case may show as skipped only for
 * a platform capability the machine lacks ({@link NoSkippedCases}); any other skip fails.
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

  /** Dead owners: reclaim of what they held. */
  @Nested
  class Owners extends OwnerCases {
    Owners() {
      super(stores());
    }
  }

  /** An owner the store declares dead while it lives. */
  @Nested
  class LostOwners extends OwnerLostCases {
    LostOwners() {
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

  /** Managed execution: retries, delays and what each attempt spends. */
  @Nested
  class Execution extends ExecutionCases {
    Execution() {
      super(stores());
    }
  }

  /** Managed execution: deadlines, attempt timeouts, cancellation, classifier failures, close. */
  @Nested
  class ExecutionEnd extends ExecutionEndCases {
    ExecutionEnd() {
      super(stores());
    }
  }

  /** The blocking managed execution: attempts and delays on the calling thread. */
  @Nested
  class BlockingExecution extends BlockingExecutionCases {
    BlockingExecution() {
      super(stores());
    }
  }

  /** What managed execution reports to the pool with each attempt's release. */
  @Nested
  class ExecutionReport extends ExecutionReportCases {
    ExecutionReport() {
      super(stores());
    }
  }

  /** Operation records: unfinished work a drain knows of, unconfirmed when its owner dies. */
  @Nested
  class Operations extends OperationCases {
    Operations() {
      super(stores());
    }
  }

  /** The shared cooldown. */
  @Nested
  class Cooldown extends CooldownCases {
    Cooldown() {
      super(stores());
    }
  }

  /** The shared circuit breaker. */
  @Nested
  class Breaker extends BreakerCases {
    Breaker() {
      super(stores());
    }
  }

  /** The control-change events: cooldown, circuit and drain, in order, at the ends they report. */
  @Nested
  class ControlEvents extends ControlEventCases {
    ControlEvents() {
      super(stores());
    }
  }

  /** The pool-wide drain. */
  @Nested
  class Drain extends DrainCases {
    Drain() {
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
