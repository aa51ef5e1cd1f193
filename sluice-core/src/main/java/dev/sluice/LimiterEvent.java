/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.time.Duration;
import java.util.Objects;

/**
 * Something that happened on a limiter, reported to a {@link LimiterListener}: a step in the life
 * of a request ({@link Request}), of a managed execution's attempt ({@link AttemptStarted}, {@link
 * AttemptEnded}, {@link RetryScheduled}), or a change of the pool's shared control state that this
 * JVM observed ({@link ControlChanged}).
 *
 * <p>Every event names its pool, its {@link #kind()} and when it happened on the limiter's
 * monotonic clock. Values are immutable records.
 */
public sealed interface LimiterEvent
    permits LimiterEvent.Request,
        LimiterEvent.AttemptStarted,
        LimiterEvent.AttemptEnded,
        LimiterEvent.RetryScheduled,
        LimiterEvent.ControlChanged {

  /** What happened. */
  Kind kind();

  /** The pool's name. */
  String pool();

  /** When it happened, on the limiter's monotonic clock. */
  long monotonicNanos();

  /** What an event reports. */
  enum Kind {
    /** A request joined the pool's queue. */
    QUEUED,
    /** The store granted a lease. */
    GRANTED,
    /** The callback (or the caller holding a lease) started. */
    STARTED,
    /** The lease was released. */
    RELEASED,
    /** The request was withdrawn before it started: cancelled, completed or closed. */
    WITHDRAWN,
    /** The request did not start within its queue timeout. */
    TIMED_OUT,
    /** The lease had expired before the callback could start. */
    EXPIRED,
    /**
     * The store declared this JVM's owner dead and reclaimed the request's queue entry or lease
     * (see {@link OwnerLostException}); a request that had not started fails.
     */
    OWNER_LOST,
    /** An attempt of a managed execution started its task: {@link AttemptStarted}. */
    ATTEMPT_STARTED,
    /** An attempt's task ended and was judged: {@link AttemptEnded}. */
    ATTEMPT_ENDED,
    /** A managed execution will try again after a delay: {@link RetryScheduled}. */
    RETRY_SCHEDULED,
    /** The pool's cooldown, circuit or drain changed: {@link ControlChanged}. */
    CONTROL_CHANGED;

    /** Whether this kind is a step of a request ({@link Request}). */
    public boolean isRequestStep() {
      return ordinal() <= OWNER_LOST.ordinal();
    }
  }

  /**
   * One step in the life of a request.
   *
   * @param kind the step: one of the kinds whose {@link Kind#isRequestStep()} is true
   * @param pool the pool's name
   * @param requestId this JVM's id of the request, the same in all its steps (so a listener can
   *     measure its wait from QUEUED to GRANTED); unique per pool within the JVM
   * @param leaseId the lease or queue entry id, or {@code 0} before the store assigned one
   * @param weight the request's weight
   * @param monotonicNanos when it happened
   */
  record Request(
      Kind kind, String pool, long requestId, long leaseId, long weight, long monotonicNanos)
      implements LimiterEvent {
    /** Checks the components. */
    public Request {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(pool, "pool");
      if (!kind.isRequestStep()) {
        throw new IllegalArgumentException(
            "kind must be a request step (QUEUED..OWNER_LOST), was " + kind);
      }
    }
  }

  /**
   * An attempt of a managed execution was admitted and its task starts.
   *
   * @param pool the pool's name
   * @param operationId the execution's id, the same for all its attempts
   * @param attempt the attempt's number, from 1
   * @param leaseId the attempt's lease
   * @param monotonicNanos when it started
   */
  record AttemptStarted(
      String pool, String operationId, int attempt, long leaseId, long monotonicNanos)
      implements LimiterEvent {
    /** Checks the components. */
    public AttemptStarted {
      Objects.requireNonNull(pool, "pool");
      Objects.requireNonNull(operationId, "operationId");
    }

    @Override
    public Kind kind() {
      return Kind.ATTEMPT_STARTED;
    }
  }

  /**
   * An attempt's task ended (before its lease is released) and the classifier judged it.
   *
   * @param pool the pool's name
   * @param operationId the execution's id
   * @param attempt the attempt's number, from 1
   * @param outcome the classifier's judgement; neutral for a cancelled attempt or a classifier that
   *     failed
   * @param threw whether the task threw (the outcome may still be a success if the classifier says
   *     so)
   * @param duration how long the task ran, on the limiter's clock
   * @param monotonicNanos when it ended
   */
  record AttemptEnded(
      String pool,
      String operationId,
      int attempt,
      AttemptOutcome outcome,
      boolean threw,
      Duration duration,
      long monotonicNanos)
      implements LimiterEvent {
    /** Checks the components. */
    public AttemptEnded {
      Objects.requireNonNull(pool, "pool");
      Objects.requireNonNull(operationId, "operationId");
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(duration, "duration");
    }

    @Override
    public Kind kind() {
      return Kind.ATTEMPT_ENDED;
    }
  }

  /**
   * A managed execution will make another attempt after {@code delay}, holding no lease meanwhile.
   *
   * @param pool the pool's name
   * @param operationId the execution's id
   * @param nextAttempt the number of the attempt to come
   * @param delay the backoff before it, raised to a throttle's retry-after
   * @param monotonicNanos when the retry was scheduled
   */
  record RetryScheduled(
      String pool, String operationId, int nextAttempt, Duration delay, long monotonicNanos)
      implements LimiterEvent {
    /** Checks the components. */
    public RetryScheduled {
      Objects.requireNonNull(pool, "pool");
      Objects.requireNonNull(operationId, "operationId");
      Objects.requireNonNull(delay, "delay");
    }

    @Override
    public Kind kind() {
      return Kind.RETRY_SCHEDULED;
    }
  }

  /**
   * The pool's shared control state changed, as this JVM observed it: by its own commands, the
   * reports of its attempts, and reads after another owner changed the pool. Another process's
   * change is seen when the store wakes this JVM for it: every store wakes every owner of the pool
   * for a drain and its resume, a cooldown that begins or moves, and a change of the circuit's
   * phase or pause. A JVM that was not looking may miss a short-lived state; {@link #status()} is
   * always the state as last read.
   *
   * @param pool the pool's name
   * @param change what changed
   * @param status the control state after the change
   * @param monotonicNanos when this JVM observed it
   */
  record ControlChanged(String pool, Change change, ControlStatus status, long monotonicNanos)
      implements LimiterEvent {
    /** Checks the components. */
    public ControlChanged {
      Objects.requireNonNull(pool, "pool");
      Objects.requireNonNull(change, "change");
      Objects.requireNonNull(status, "status");
    }

    @Override
    public Kind kind() {
      return Kind.CONTROL_CHANGED;
    }
  }

  /**
   * What part of the control state changed. A change made by a command is reported when this JVM
   * sees its result: at once for this JVM's own reports and drain commands, and for another owner's
   * commit as {@link ControlChanged} tells. An end that comes by time alone ({@link
   * #COOLDOWN_LEFT}, {@link #CIRCUIT_HALF_OPEN}) is reported at that end on the store's clock while
   * a listener listens and this JVM knew of the pause; otherwise at the first state this JVM reads
   * after it.
   */
  enum Change {
    /**
     * A cooldown started or was extended: admissions pause until {@link
     * ControlStatus#cooldownUntil()}.
     */
    COOLDOWN_ENTERED,
    /** The cooldown's end came: admissions flow again. */
    COOLDOWN_LEFT,
    /**
     * The circuit opened, or reopened after a probe that did not succeed: nothing is admitted until
     * {@link ControlStatus#circuitOpenUntil()}.
     */
    CIRCUIT_OPENED,
    /**
     * The open circuit's pause ended: the next admission is the probe. Reported at the pause's end,
     * not when a probe is admitted; the status already shows {@link
     * ControlStatus.Circuit#HALF_OPEN}.
     */
    CIRCUIT_HALF_OPEN,
    /** A successful probe closed the circuit. */
    CIRCUIT_CLOSED,
    /** A drain started: new work is refused. */
    DRAIN_STARTED,
    /** The drain ended: new work is admitted again. */
    DRAIN_RESUMED
  }
}
