/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import dev.sluice.local.RandomBytes;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * Mints tokens and hashes them. Tokens are 128 random bits in hex; the store keeps only their
 * SHA-256. Transitions take the mint as an argument so that tests can make tokens deterministic.
 */
public interface TokenMint {
  /** A fresh token, never returned before. */
  String next();

  /**
   * The production mint: the kernel's random generator ({@link RandomBytes}), which is what the
   * JDK's {@code SecureRandom} reads on Linux, without that class's costly first use. Thread-safe.
   */
  static TokenMint secure() {
    return () -> HexFormat.of().formatHex(RandomBytes.next(16));
  }

  /**
   * The SHA-256 of a token, in hex.
   *
   * @param token the token
   * @return its hash
   */
  static String hash(String token) {
    // Not MessageDigest: see Sha256.
    return HexFormat.of().formatHex(Sha256.digest(token.getBytes(StandardCharsets.UTF_8)));
  }
}
