/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import java.lang.reflect.Method;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.opentest4j.TestAbortedException;

/**
 * Fails a conformance case that aborts on an assumption, unless the assumption was {@linkplain
 * #assumePlatform about a platform capability} this machine lacks: a store may not pass the suite
 * by skipping what it cannot do.
 *
 * <p>Thread-safe (stateless).
 */
public final class NoSkippedCases implements InvocationInterceptor {
  private static final String PLATFORM = "platform capability missing: ";

  /**
   * Skips the running case because the machine lacks {@code capability} (for example a file system
   * feature), which is the one reason a conformance case may show as skipped.
   *
   * @param present whether the machine has it
   * @param capability what it is
   */
  public static void assumePlatform(boolean present, String capability) {
    Assumptions.assumeTrue(present, PLATFORM + capability);
  }

  @Override
  public void interceptTestMethod(
      Invocation<Void> invocation,
      ReflectiveInvocationContext<Method> invocationContext,
      ExtensionContext extensionContext)
      throws Throwable {
    try {
      invocation.proceed();
    } catch (TestAbortedException e) {
      String why = String.valueOf(e.getMessage());
      if (why.contains(PLATFORM)) {
        throw e;
      }
      throw new AssertionError(
          "conformance case "
              + extensionContext.getDisplayName()
              + " was skipped ("
              + why
              + "); only a missing platform capability may skip a case",
          e);
    }
  }
}
