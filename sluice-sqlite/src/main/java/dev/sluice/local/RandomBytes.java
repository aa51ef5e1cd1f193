/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * Unpredictable bytes for owner ids and tokens, read from the kernel's generator ({@code
 * /dev/urandom}, the source the JDK's default {@link SecureRandom} reads on Linux too), else from a
 * {@link SecureRandom}. Why not always the latter: its first use sets up the JDK's security
 * providers, about 30 ms of a short-lived command such as {@code sluice run}; one read of the
 * device takes a fraction of a millisecond.
 *
 * <p>Thread-safe. Never blocks once the kernel's generator is seeded (early in boot).
 */
public final class RandomBytes {
  private static final Path DEVICE = Path.of("/dev/urandom");

  private RandomBytes() {}

  /**
   * Fresh random bytes.
   *
   * @param n how many, at least 1
   * @return {@code n} bytes
   */
  public static byte[] next(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be at least 1, was " + n);
    }
    byte[] bytes = new byte[n];
    if (!fromDevice(bytes)) {
      Fallback.RANDOM.nextBytes(bytes);
    }
    return bytes;
  }

  private static boolean fromDevice(byte[] bytes) {
    try (InputStream in = Files.newInputStream(DEVICE)) {
      return in.readNBytes(bytes, 0, bytes.length) == bytes.length;
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      // No such device here (not Linux, a container without /dev): the JDK's generator.
      return false;
    }
  }

  /** Made only where the device cannot be read. */
  private static final class Fallback {
    static final SecureRandom RANDOM = new SecureRandom();
  }
}
