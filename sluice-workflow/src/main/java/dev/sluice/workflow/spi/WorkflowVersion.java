/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.spi;

import java.util.Objects;

/**
 * A workflow's name and version: what a claim names as runnable (see {@link
 * WorkflowTransaction#claimNext}).
 *
 * @param workflow the workflow's name
 * @param version its version
 */
public record WorkflowVersion(String workflow, int version) {
  /** Checks the name. */
  public WorkflowVersion {
    Objects.requireNonNull(workflow, "workflow");
  }
}
