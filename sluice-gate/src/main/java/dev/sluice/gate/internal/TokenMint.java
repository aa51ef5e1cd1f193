/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Mints tokens and hashes them. Tokens are 128 random bits in hex; the store keeps only their
 * SHA-256. Transitions take the mint as an argument so that tests can make tokens deterministic.
 */
public interface TokenMint {
  /** A fresh token, never returned before. */
  String next();

  /** The production mint: {@link SecureRandom}. Thread-safe. */
  static TokenMint secure() {
    SecureRandom random = new SecureRandom();
    return () -> {
      byte[] bytes = new byte[16];
      random.nextBytes(bytes);
      return HexFormat.of().formatHex(bytes);
    };
  }

  /**
   * The SHA-256 of a token, in hex.
   *
   * @param token the token
   * @return its hash
   */
  static String hash(String token) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(sha.digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
