/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi.support;

import dev.sluice.Admission;
import dev.sluice.AttemptOutcome;
import dev.sluice.Instrumentation;
import dev.sluice.Observation;
import java.util.concurrent.CancellationException;

/**
 * Calls an {@link Observation} from a Sluice thread: a hook that throws is logged and ignored,
 * since the thread must still finish the request it serves (release its lease, complete its
 * future).
 *
 * <p>Thread-safe; stateless.
 */
public final class Observed {
  private static final Log LOG = Logs.of(Observed.class);

  private Observed() {}

  /**
   * Tells {@code o} the work was admitted.
   *
   * @param o the observation
   * @param admission the admission
   */
  public static void admitted(Observation o, Admission admission) {
    try {
      o.admitted(admission);
    } catch (RuntimeException e) {
      failed("admitted", e);
    }
  }

  /**
   * Asks {@code instrumentation} to observe attempt {@code n} of {@code execution}.
   *
   * @param instrumentation the hook
   * @param execution the execution's observation
   * @param n the attempt's number
   * @return the attempt's observation, or {@link Observation#NONE} if the hook threw or gave none
   */
  public static Observation attempt(Instrumentation instrumentation, Observation execution, int n) {
    try {
      Observation o = instrumentation.attempt(execution, n);
      return o == null ? Observation.NONE : o;
    } catch (RuntimeException e) {
      failed("attempt", e);
      return Observation.NONE;
    }
  }

  /**
   * Enters {@code o} on this thread.
   *
   * @param o the observation
   * @return its scope, or a scope that restores nothing if the hook threw
   */
  public static Observation.Scope enter(Observation o) {
    try {
      Observation.Scope s = o.enter();
      return s == null ? Observation.Scope.NONE : s;
    } catch (RuntimeException e) {
      failed("enter", e);
      return Observation.Scope.NONE;
    }
  }

  /**
   * Closes a scope {@link #enter} returned.
   *
   * @param s the scope
   */
  public static void exit(Observation.Scope s) {
    try {
      s.close();
    } catch (RuntimeException e) {
      failed("exit", e);
    }
  }

  /**
   * Tells {@code o} an attempt's judgement.
   *
   * @param o the observation
   * @param outcome the judgement
   */
  public static void classified(Observation o, AttemptOutcome outcome) {
    try {
      o.classified(outcome);
    } catch (RuntimeException e) {
      failed("classified", e);
    }
  }

  /**
   * Ends {@code o}, if there is one.
   *
   * @param o the observation, or null for none
   * @param failure null for a normal end, else the work's exception
   */
  public static void end(Observation o, Throwable failure) {
    if (o == null) {
      return;
    }
    try {
      o.end(failure);
    } catch (RuntimeException e) {
      failed("end", e);
    }
  }

  /**
   * Ends {@code o}, if there is one, as withdrawn by its caller: with a {@link
   * CancellationException}.
   *
   * @param o the observation, or null for none
   * @param why the exception's message
   */
  public static void cancelled(Observation o, String why) {
    if (o != null) {
      end(o, new CancellationException(why));
    }
  }

  private static void failed(String call, RuntimeException e) {
    LOG.warn("an instrumentation hook threw from {}; ignored: {}", call, e.toString());
  }
}
