/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Makes operation ids in the shape of version-4 UUIDs, unique across processes without
 * coordination: the first half is drawn once per JVM from a secure source, the second half counts
 * up from a random start. Two JVMs collide only if they draw the same 60 random bits; one JVM never
 * repeats an id before its counter wraps 2<sup>62</sup> ids later. An id is made on every managed
 * execution, so it is formatted from a prefix made once plus sixteen hex digits, without drawing
 * random numbers or building a {@link java.util.UUID} per id.
 *
 * <p>Thread-safe; nothing blocks.
 */
final class OperationIds {
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  /** {@code xxxxxxxx-xxxx-4xxx-}: the JVM's random first half, version 4. */
  private static final byte[] PREFIX;

  /** The second half's 62 free bits; the variant bits are added when formatting. */
  private static final AtomicLong COUNTER;

  static {
    SecureRandom random = new SecureRandom();
    long high = (random.nextLong() & ~0xF000L) | 0x4000L;
    PREFIX = new byte[19];
    hex(high >>> 32, PREFIX, 0, 8);
    PREFIX[8] = '-';
    hex(high >>> 16, PREFIX, 9, 4);
    PREFIX[13] = '-';
    hex(high, PREFIX, 14, 4);
    PREFIX[18] = '-';
    COUNTER = new AtomicLong(random.nextLong());
  }

  private OperationIds() {}

  static String next() {
    long low = (COUNTER.getAndIncrement() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    byte[] id = new byte[36];
    System.arraycopy(PREFIX, 0, id, 0, 19);
    hex(low >>> 48, id, 19, 4);
    id[23] = '-';
    hex(low, id, 24, 12);
    return new String(id, StandardCharsets.US_ASCII);
  }

  /** Writes the low {@code digits} hex digits of {@code value} into {@code to} at {@code at}. */
  private static void hex(long value, byte[] to, int at, int digits) {
    for (int i = at + digits - 1; i >= at; i--) {
      to[i] = HEX[(int) (value & 0xF)];
      value >>>= 4;
    }
  }
}
