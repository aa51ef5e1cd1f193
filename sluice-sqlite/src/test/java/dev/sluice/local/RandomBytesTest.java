/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Random bytes for ids and tokens: the length asked for, and no repeats. */
class RandomBytesTest {
  @Test
  void givesTheLengthAskedForAndNeverTheSameBytesTwice() {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      byte[] bytes = RandomBytes.next(16);
      assertThat(bytes).hasSize(16);
      assertThat(seen.add(HexFormat.of().formatHex(bytes))).isTrue();
    }
  }

  @Test
  void refusesAnEmptyRequest() {
    assertThatThrownBy(() -> RandomBytes.next(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("n must be at least 1, was 0");
  }
}
