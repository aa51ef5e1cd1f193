/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.util.Objects;

/**
 * How a person names a job (a {@code sluice run} or an agent's request) to {@code cancel} or {@code
 * kill}: by its request id, or by its label, which must name exactly one live job.
 *
 * <p>Immutable and thread-safe.
 */
public sealed interface JobRef {
  /** How messages name the job: {@code r7}, or {@code label 'nightly build'}. */
  String describe();

  /**
   * A job by request id.
   *
   * @param requestId the id, for example {@code r7}
   */
  record ById(String requestId) implements JobRef {
    /** Checks the id. */
    public ById {
      AcquireRequest.text("request id", Objects.requireNonNull(requestId, "requestId"), 1, 64);
    }

    @Override
    public String describe() {
      return requestId;
    }
  }

  /**
   * The one live (queued, offered, paused or running) job with this exact label.
   *
   * @param label the label, as {@code --label} gave it to {@code run} or {@code acquire}
   */
  record ByLabel(String label) implements JobRef {
    /** Checks the label. */
    public ByLabel {
      AcquireRequest.text("label", Objects.requireNonNull(label, "label"), 1, 200);
    }

    @Override
    public String describe() {
      return "label '" + label + "'";
    }
  }

  /** A job by request id. */
  static JobRef id(String requestId) {
    return new ById(requestId);
  }

  /** The one live job with this label. */
  static JobRef label(String label) {
    return new ByLabel(label);
  }
}
