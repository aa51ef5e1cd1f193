/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** A pulse names the pulse before it; a pulse of an older Sluice reads as one without gaps. */
class PulseTextTest {
  @Test
  void aPulseReadsBackWithItsPredecessor() {
    PulseText p = PulseText.parse(PulseText.format(12, "w", Set.of("a", "b"), 9));
    assertThat(p).isEqualTo(new PulseText(12, "w", Set.of("a", "b"), false, 9));
  }

  @Test
  void anUnknownPredecessorAndNoOwnersReadBack() {
    PulseText p = PulseText.parse(PulseText.format(3, "w", Set.of(), PulseText.UNKNOWN));
    assertThat(p).isEqualTo(new PulseText(3, "w", Set.of(), false, PulseText.UNKNOWN));
  }

  @Test
  void aThreeFieldPulseFollowsTheVersionBeforeIt() {
    assertThat(PulseText.parse("12 w a,b"))
        .isEqualTo(new PulseText(12, "w", Set.of("a", "b"), false, 11));
  }

  @Test
  void tooManyOwnersSayEveryone() {
    Set<String> many = new java.util.HashSet<>();
    for (int i = 0; i < 1000; i++) {
      many.add("owner" + i);
    }
    PulseText p = PulseText.parse(PulseText.format(5, "w", many, 4));
    assertThat(p.everyone()).isTrue();
    assertThat(p.previous()).isEqualTo(4);
  }

  @Test
  void theLastVersionOfAPulseFile() {
    assertThat(PulseText.lastVersion("")).isZero();
    assertThat(PulseText.lastVersion("  \n")).isZero();
    assertThat(PulseText.lastVersion("41 w - 40")).isEqualTo(41);
    assertThat(PulseText.lastVersion("41 w -")).isEqualTo(41);
    assertThat(PulseText.lastVersion("garbage")).isEqualTo(PulseText.UNKNOWN);
    assertThat(PulseText.parse("1 w a,a 0").owners()).containsExactly("a");
  }
}
