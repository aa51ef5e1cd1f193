/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import dev.sluice.SluiceException;
import java.util.Locale;

/**
 * A gate operation was refused. {@link #code()} says why in a stable form for scripts and agents;
 * the message says it for people, naming the pool, request or value involved. Nothing was changed.
 */
public final class GateException extends SluiceException {
  private static final long serialVersionUID = 1L;

  /** Why an operation was refused. */
  public enum Code {
    /** The request is heavier than its pool's capacity. */
    WEIGHT_EXCEEDS_CAPACITY,
    /** No request is known for this token (never issued, mistyped, or pruned after an hour). */
    UNKNOWN_TOKEN,
    /** The token belongs to an earlier offer or state of its request. */
    STALE_TOKEN,
    /** The offer lapsed before the claim; the request is paused. */
    OFFER_EXPIRED,
    /** The permit's start deadline passed before the start; it was reclaimed. */
    START_DEADLINE_PASSED,
    /** No request with this id is known. */
    UNKNOWN_REQUEST,
    /** The request belongs to another agent. */
    NOT_OWNER,
    /** The request is not in a state this operation applies to. */
    WRONG_STATE,
    /** The permit is already bound to another process. */
    ALREADY_STARTED,
    /** The agent's operation key already names a request for another pool or weight. */
    CONFLICT,
    /**
     * The request was withdrawn by {@code cancel}: its waiter stops, and its operation key answers
     * this until the request is pruned.
     */
    CANCELLED,
    /** No such pool: it was never set up (only the default pool is made by its first request). */
    UNKNOWN_POOL,
    /** The pool still has holders, offers, queued or paused requests. */
    POOL_BUSY,
    /** No live job has this label. */
    UNKNOWN_LABEL,
    /** More than one live job has this label; the message lists their ids. */
    AMBIGUOUS_LABEL;

    /** The code as scripts see it, for example {@code weight_exceeds_capacity}. */
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final Code code;
  private final PermitLoss loss;

  /**
   * Creates the exception.
   *
   * @param code why
   * @param message what happened, naming the pool, request or value
   */
  public GateException(Code code, String message) {
    this(code, message, null);
  }

  /**
   * Creates the exception for an operation on a permit the gate took back.
   *
   * @param code why
   * @param message what happened, naming the request
   * @param loss how the permit was lost, or {@code null} if it was not
   */
  public GateException(Code code, String message, PermitLoss loss) {
    super(message);
    this.code = code;
    this.loss = loss;
  }

  /**
   * How the permit this operation named was lost (lapsed or reclaimed), if that is why it was
   * refused: its holder works outside the pool and must stop.
   */
  public java.util.Optional<PermitLoss> loss() {
    return java.util.Optional.ofNullable(loss);
  }

  /** Why the operation was refused. */
  public Code code() {
    return code;
  }
}
