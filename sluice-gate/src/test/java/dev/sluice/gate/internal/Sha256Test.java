/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The gate's own SHA-256 against FIPS 180-4's examples and the JDK's digest. */
class Sha256Test {
  @Test
  void matchesTheStandardsExamples() {
    assertThat(hex(""))
        .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assertThat(hex("abc"))
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assertThat(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))
        .isEqualTo("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  }

  @Test
  void matchesTheJdkForEveryLengthAcrossBlockBoundaries() throws Exception {
    SplittableRandom random = new SplittableRandom(14);
    MessageDigest jdk = MessageDigest.getInstance("SHA-256");
    for (int length = 0; length <= 300; length++) {
      byte[] message = new byte[length];
      random.nextBytes(message);
      assertThat(Sha256.digest(message)).as("length %d", length).isEqualTo(jdk.digest(message));
    }
  }

  @Test
  void tokenHashesAreTheJdksHexDigest() throws Exception {
    String token = "0123456789abcdef0123456789abcdef";
    byte[] jdk =
        MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    assertThat(TokenMint.hash(token)).isEqualTo(HexFormat.of().formatHex(jdk));
  }

  private static String hex(String text) {
    return HexFormat.of().formatHex(Sha256.digest(text.getBytes(StandardCharsets.UTF_8)));
  }
}
