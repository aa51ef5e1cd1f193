/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import java.time.Duration;
import java.util.Optional;

/**
 * Options of one {@link WorkflowRuntime#submit(Workflow, String, Object, SubmitOptions) submit}.
 * They apply only when the submit creates the execution; a repeated submit of a known id returns
 * the existing execution with the options it was created with.
 *
 * <p>Immutable and thread-safe.
 *
 * @param executionTimeout how long the execution may take from its creation, overriding the
 *     workflow's default ({@link WorkflowRuntime.Builder#executionTimeout}); null for that default
 */
public record SubmitOptions(Duration executionTimeout) {
  /** Checks the components, naming the field, the value and the allowed range. */
  public SubmitOptions {
    if (executionTimeout != null) {
      RuntimeSettings.checkExecutionTimeout("executionTimeout", executionTimeout);
    }
  }

  /** The options of a plain submit: the workflow's defaults. */
  public static SubmitOptions defaults() {
    return new SubmitOptions(null);
  }

  /** Returns a builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** The execution timeout set for this submit, if any. */
  public Optional<Duration> executionTimeoutOverride() {
    return Optional.ofNullable(executionTimeout);
  }

  /** Builds {@link SubmitOptions}; {@link #build()} checks them. Not thread-safe. */
  public static final class Builder {
    private Duration executionTimeout;

    Builder() {}

    /**
     * Limits how long the execution may take, counted from its creation on the store's clock. When
     * the limit passes before it finished, it ends {@link ExecutionStatus#TIMED_OUT} wherever it
     * stands (queued, sleeping, running) and {@link Execution#result(Duration)} throws {@link
     * WorkflowTimeoutException}. A step body running at that moment is not interrupted, but its
     * result is not recorded.
     *
     * @param executionTimeout {@link RuntimeSettings#MIN_EXECUTION_TIMEOUT} to {@link
     *     RuntimeSettings#MAX_EXECUTION_TIMEOUT}
     * @return this builder
     */
    public Builder executionTimeout(Duration executionTimeout) {
      this.executionTimeout =
          java.util.Objects.requireNonNull(executionTimeout, "executionTimeout");
      return this;
    }

    /** Returns the checked options. */
    public SubmitOptions build() {
      return new SubmitOptions(executionTimeout);
    }
  }
}
