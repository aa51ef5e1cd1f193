/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.workflow.NonDeterminismException;
import dev.sluice.workflow.StepFailedException;
import dev.sluice.workflow.spi.FailureRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * Exceptions to failure records and back. A record's class name is only ever compared with the
 * names of this library's own exceptions, never loaded.
 */
final class Failures {
  /** Stacks are cut here: enough to find the fault, bounded in the store. */
  static final int MAX_FRAMES = 64;

  private Failures() {}

  /** Records an exception; a replayed step failure records the original it stands for. */
  static FailureRecord of(Throwable t) {
    String className = t.getClass().getName();
    String message = t.getMessage();
    if (t instanceof StepFailedException s) {
      className = s.originalClassName();
      message = s.originalMessage();
    }
    StackTraceElement[] stack = t.getStackTrace();
    List<FailureRecord.Frame> frames = new ArrayList<>();
    for (int i = 0; i < stack.length && i < MAX_FRAMES; i++) {
      StackTraceElement e = stack[i];
      frames.add(
          new FailureRecord.Frame(
              e.getClassName(), e.getMethodName(), e.getFileName(), e.getLineNumber()));
    }
    return new FailureRecord(className, message, frames);
  }

  static StackTraceElement[] stack(FailureRecord f) {
    StackTraceElement[] out = new StackTraceElement[f.frames().size()];
    for (int i = 0; i < out.length; i++) {
      FailureRecord.Frame fr = f.frames().get(i);
      out[i] = new StackTraceElement(fr.className(), fr.method(), fr.file(), fr.line());
    }
    return out;
  }

  /** The exception a recorded step failure replays as. */
  static StepFailedException stepFailed(String stepKey, FailureRecord f) {
    return new StepFailedException(stepKey, f.className(), f.message(), stack(f));
  }

  /** The cause a failed execution reports: non-determinism as itself, anything else replayed. */
  static RuntimeException cause(FailureRecord f) {
    if (f.className().equals(NonDeterminismException.class.getName())) {
      NonDeterminismException e = new NonDeterminismException(f.message());
      e.setStackTrace(stack(f));
      return e;
    }
    return stepFailed("", f);
  }

  static String describe(FailureRecord f) {
    return f.message() == null ? f.className() : f.className() + ": " + f.message();
  }
}
