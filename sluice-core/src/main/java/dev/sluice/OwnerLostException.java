/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

/**
 * The store declared this JVM's owner of the pool dead while the JVM still lived (for example its
 * heartbeat to a server lapsed while it was cut off or paused) and reclaimed what it held: its
 * queued requests left the queue and its leases went back to the pool. A request that had not
 * started fails with this exception; a callback already running keeps running (nothing is ever
 * interrupted), but its lease no longer counts against the pool, so its fencing token is what
 * protects the system it calls. The limiter registers a new owner and goes on.
 *
 * <p>Immutable; thread-safe.
 */
public final class OwnerLostException extends SluiceException {
  private static final long serialVersionUID = 1L;

  private final String owner;

  /**
   * Creates the exception.
   *
   * @param pool the pool's name
   * @param owner the id of the owner the store declared dead
   */
  public OwnerLostException(String pool, String owner) {
    super(
        "owner "
            + owner
            + " of pool '"
            + pool
            + "' was declared dead by the store, which reclaimed its leases and queued requests;"
            + " requests that had not started fail, and the limiter goes on as a new owner");
    this.owner = owner;
  }

  /** Returns the id of the owner the store declared dead. */
  public String owner() {
    return owner;
  }
}
