/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Owner ids and their advisory lock keys. An id is never reused, across JVMs and machines: it
 * carries this JVM's pid and 64 random bits chosen when the class loads, and a counter.
 *
 * <p>Thread-safe.
 */
final class OwnerIds {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String JVM =
      Long.toHexString(ProcessHandle.current().pid()) + "-" + random();
  private static final AtomicLong NEXT = new AtomicLong();

  private OwnerIds() {}

  /**
   * The key of the shared transaction-scoped advisory lock that this JVM's batch transactions take
   * with a pool's row lock: it marks their sessions as this JVM's, so that another JVM that finds
   * this JVM's owners lapsed can end the sessions that still hold the row lock ({@link
   * #markKeyOf}).
   */
  static long markKey() {
    return Tables.key("sluice-jvm:pg-" + JVM);
  }

  /** The {@link #markKey()} of the JVM that registered {@code owner}. */
  static long markKeyOf(String owner) {
    return Tables.key("sluice-jvm:" + owner.substring(0, owner.lastIndexOf('-')));
  }

  /** A new owner id. */
  static String next() {
    return "pg-" + JVM + "-" + NEXT.incrementAndGet();
  }

  /** The key of the session-level advisory lock that an owner holds for its lifetime. */
  static long lockKey(String owner) {
    return Tables.key("sluice-owner:" + owner);
  }

  /** 64 random bits in hex. */
  static String random() {
    byte[] b = new byte[8];
    RANDOM.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }
}
