/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

/**
 * Observes a limiter's work and carries the submitting caller's context (a trace, a logging
 * context) onto the threads that run its callbacks. A tracing module implements it ({@code
 * sluice-opentelemetry}); a limiter uses one given to {@link
 * LimiterOptions.Builder#instrumentation(Instrumentation)}, and a limiter without one does no
 * instrumentation work at all.
 *
 * <p>{@link #schedule} and {@link #execute} are called on the submitting thread, once the arguments
 * were accepted, so an implementation captures that thread's context there; {@link #attempt} is
 * called on a Sluice thread, with the execution's observation as the parent. Each returned {@link
 * Observation} is then told, on Sluice's threads, when the request was admitted, when user code
 * runs for it and how it ended. The blocking {@link Limiter#call(ExecutionTask, ExecuteOptions)} is
 * observed like {@code execute}, with every call (attempts included) on the calling thread, which
 * also runs each attempt's task inside the attempt's observation.
 *
 * <p>Implementations must be thread-safe and must not block. An exception one throws on the
 * submitting thread reaches the caller; one thrown on a Sluice thread is logged and ignored, so a
 * faulty hook never leaves a request unfinished.
 */
public interface Instrumentation {

  /**
   * A {@code schedule} request was accepted.
   *
   * @param pool the pool's name
   * @param options the request's weight, lease lifetime and queue timeout
   * @return the request's observation, never null
   */
  Observation schedule(String pool, ScheduleOptions options);

  /**
   * A managed execution ({@code execute}) was accepted. Its attempts are observed through {@link
   * #attempt}.
   *
   * @param pool the pool's name
   * @param operationId the id every attempt of it sees
   * @param options its settings
   * @return the execution's observation, never null
   */
  Observation execute(String pool, String operationId, ExecuteOptions options);

  /**
   * An attempt of a managed execution is about to ask for admission.
   *
   * @param execution what {@link #execute} returned for the execution
   * @param attempt 1 for the first attempt, then 2, 3, …
   * @return the attempt's observation, never null; it learns the classifier's judgement through
   *     {@link Observation#classified(AttemptOutcome)}
   */
  Observation attempt(Observation execution, int attempt);
}
