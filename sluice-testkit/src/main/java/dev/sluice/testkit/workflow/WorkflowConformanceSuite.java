/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import org.junit.jupiter.api.Nested;

/**
 * The workflow conformance suite: every workflow store subclasses it, supplies its {@link
 * WorkflowStoreFactory}, and must pass every case unchanged, on the suite's manual clock. A case
 * may show as skipped only for a platform capability the machine lacks ({@link
 * dev.sluice.testkit.NoSkippedCases}); any other skip fails.
 *
 * <pre>{@code
 * class MemoryWorkflowStoreConformanceTest extends WorkflowConformanceSuite {
 *   @Override
 *   protected WorkflowStoreFactory stores() {
 *     return (name, clock) -> MemoryWorkflowStore.named(name, clock);
 *   }
 * }
 * }</pre>
 */
public abstract class WorkflowConformanceSuite {
  /** Returns the store under test. */
  protected abstract WorkflowStoreFactory stores();

  /** Replay returns recorded results; each body runs once. */
  @Nested
  class Replay extends ReplayCases {
    Replay() {
      super(stores());
    }
  }

  /** The store's claim: order, limit, eligibility and epochs. */
  @Nested
  class Claim extends ClaimCases {
    Claim() {
      super(stores());
    }
  }

  /** What a commit tells every session of the store. */
  @Nested
  class Changes extends ChangeCases {
    Changes() {
      super(stores());
    }
  }

  /** Step failures and retries. */
  @Nested
  class StepFailures extends StepFailureCases {
    StepFailures() {
      super(stores());
    }
  }

  /** Durable sleeps. */
  @Nested
  class Sleeps extends SleepCases {
    Sleeps() {
      super(stores());
    }
  }

  /** Cancellation. */
  @Nested
  class Cancellation extends CancelCases {
    Cancellation() {
      super(stores());
    }
  }

  /** Idempotent submit and conflicts. */
  @Nested
  class Submit extends SubmitCases {
    Submit() {
      super(stores());
    }
  }

  /** Non-determinism detection and thread confinement. */
  @Nested
  class NonDeterminism extends NonDeterminismCases {
    NonDeterminism() {
      super(stores());
    }
  }

  /** Bad input. */
  @Nested
  class BadInput extends BadInputCases {
    BadInput() {
      super(stores());
    }
  }

  /** Restarts, take-over and purge. */
  @Nested
  class Restart extends RestartCases {
    Restart() {
      super(stores());
    }
  }

  /** Several runtimes and workers on one store. */
  @Nested
  class Concurrency extends ConcurrencyCases {
    Concurrency() {
      super(stores());
    }
  }

  /** Execution timeouts. */
  @Nested
  class Timeouts extends TimeoutCases {
    Timeouts() {
      super(stores());
    }
  }

  /** Retention of finished executions. */
  @Nested
  class Retention extends RetentionCases {
    Retention() {
      super(stores());
    }
  }

  /** Versions and patches. */
  @Nested
  class Versions extends VersionCases {
    Versions() {
      super(stores());
    }
  }

  /** Durable stores: reads and changes, once each. */
  @Nested
  class DurableStores extends DurableStoreCases {
    DurableStores() {
      super(stores());
    }
  }

  /** Steps inside a limiter pool: admissions and managed executions. */
  @Nested
  class LimitedSteps extends LimitedStepCases {
    LimitedSteps() {
      super(stores());
    }
  }

  /** Waits on durable stores. */
  @Nested
  class StoreWaits extends StoreWaitCases {
    StoreWaits() {
      super(stores());
    }
  }

  /** Read-only inspection: listings, details, counts and change listeners. */
  @Nested
  class Inspection extends InspectionCases {
    Inspection() {
      super(stores());
    }
  }
}
