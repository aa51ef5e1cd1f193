/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.util.Objects;

/**
 * The store behind a limiter failed. Its {@link #kind()} says what follows:
 *
 * <ul>
 *   <li>{@link Kind#TRANSIENT} (connection lost, server restarting, a lock timeout, a full disk):
 *       the limiter fails its pending requests with this exception and recovers by itself once the
 *       store answers again, without a reopen. What the failed requests left in the store is
 *       cleaned up before the next command, so they never hold capacity.
 *   <li>{@link Kind#PERMANENT} (a damaged or foreign store, an impossible answer): the limiter
 *       admits nothing new and rejects its pending requests, while release, inspection and close
 *       still try the store so that held capacity can be returned. Fixing the cause does not resume
 *       the limiter: close it and open a new one.
 * </ul>
 *
 * <p>Immutable; thread-safe.
 */
public final class BackendFailureException extends SluiceException {
  private static final long serialVersionUID = 1L;

  /** Whether a store failure can pass by itself. */
  public enum Kind {
    /** The store may answer again; the limiter recovers by itself. */
    TRANSIENT,
    /** The store will not answer correctly again without a fix; the pool stops. */
    PERMANENT
  }

  private final Kind kind;

  /**
   * Creates a permanent failure.
   *
   * @param message what failed, naming the pool
   * @param cause the underlying failure, or {@code null}
   */
  public BackendFailureException(String message, Throwable cause) {
    this(message, cause, Kind.PERMANENT);
  }

  /**
   * Creates the exception.
   *
   * @param message what failed, naming the pool
   * @param cause the underlying failure, or {@code null}
   * @param kind whether it can pass by itself
   */
  public BackendFailureException(String message, Throwable cause, Kind kind) {
    super(message, cause);
    this.kind = Objects.requireNonNull(kind, "kind");
  }

  /** Returns whether the failure can pass by itself. */
  public Kind kind() {
    return kind;
  }
}
