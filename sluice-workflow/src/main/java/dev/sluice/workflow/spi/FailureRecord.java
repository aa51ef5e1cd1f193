/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.spi;

import java.util.List;
import java.util.Objects;

/**
 * A recorded exception: its class name, message and stack, kept as text. Nothing ever loads the
 * class named here.
 *
 * @param className the exception's class name
 * @param message its message, or null
 * @param frames its stack trace, innermost first
 */
public record FailureRecord(String className, String message, List<Frame> frames) {
  /** Checks the components. */
  public FailureRecord {
    Objects.requireNonNull(className, "className");
    frames = List.copyOf(frames);
  }

  /**
   * One stack frame.
   *
   * @param className the declaring class
   * @param method the method
   * @param file the source file, or null
   * @param line the line, negative if unknown
   */
  public record Frame(String className, String method, String file, int line) {
    /** Checks the components. */
    public Frame {
      Objects.requireNonNull(className, "className");
      Objects.requireNonNull(method, "method");
    }
  }
}
