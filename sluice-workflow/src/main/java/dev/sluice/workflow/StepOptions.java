/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import dev.sluice.RetryPolicy;
import java.util.Objects;

/**
 * How a step runs: its {@link RetryPolicy} (from the core, shared with managed execution). The wait
 * between attempts is durable: a failed attempt that may be retried is recorded with its next
 * attempt's time, the execution waits on a durable timer (it holds no worker and survives a
 * restart), and the next attempt runs when the timer falls due.
 *
 * <p>Immutable and thread-safe.
 *
 * @param retry when and how often a failed body runs again
 */
public record StepOptions(RetryPolicy retry) {
  private static final StepOptions DEFAULTS =
      new StepOptions(RetryPolicy.builder().maxAttempts(1).build());

  /** Checks the components. */
  public StepOptions {
    Objects.requireNonNull(retry, "retry");
  }

  /** Returns the defaults: one attempt, no retry. */
  public static StepOptions defaults() {
    return DEFAULTS;
  }

  /**
   * Returns options with a retry policy.
   *
   * @param retry the policy
   * @return the options
   */
  public static StepOptions retry(RetryPolicy retry) {
    return new StepOptions(retry);
  }

  /** Returns a builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link StepOptions}. Not thread-safe. */
  public static final class Builder {
    private RetryPolicy retry = DEFAULTS.retry;

    private Builder() {}

    /**
     * Sets the retry policy.
     *
     * @param retry the policy
     * @return this builder
     */
    public Builder retry(RetryPolicy retry) {
      this.retry = Objects.requireNonNull(retry, "retry");
      return this;
    }

    /** Returns the options. */
    public StepOptions build() {
      return new StepOptions(retry);
    }
  }
}
