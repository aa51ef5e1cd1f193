/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.sqlite.internal.PulseLedger.Wake;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which owners a pulse wakes, given what this JVM examined before. */
class PulseLedgerTest {
  private static Wake read(PulseLedger ledger, long version, String owner, long previous) {
    String text = PulseText.format(version, "w", Set.of(owner), previous);
    return ledger.pulse(text, PulseText.parse(text));
  }

  @Test
  void aPulseAfterTheLastExaminedOneWakesTheNamedOwnersOnce() {
    PulseLedger ledger = new PulseLedger(10);
    assertThat(read(ledger, 11, "a", 10)).isEqualTo(Wake.NAMED);
    assertThat(read(ledger, 11, "a", 10)).isEqualTo(Wake.NONE);
    // Commits 12 and 13 concerned no other JVM and did not pulse.
    assertThat(read(ledger, 14, "b", 11)).isEqualTo(Wake.NAMED);
  }

  @Test
  void aMissedPulseWakesEveryone() {
    PulseLedger ledger = new PulseLedger(10);
    assertThat(read(ledger, 13, "a", 12)).isEqualTo(Wake.EVERYONE);
    assertThat(read(ledger, 14, "a", 13)).isEqualTo(Wake.NAMED);
  }

  @Test
  void anOlderPulseAndAnUnreadableOne() {
    PulseLedger ledger = new PulseLedger(10);
    assertThat(read(ledger, 9, "a", 8)).isEqualTo(Wake.NONE);
    assertThat(ledger.pulse("garbage", null)).isEqualTo(Wake.EVERYONE);
  }

  @Test
  void aVersionReusedAfterAFailedCommitWakesEveryone() {
    PulseLedger ledger = new PulseLedger(10);
    // A writer pulsed 11 and died before its commit; the next writer commits 11 for others.
    assertThat(read(ledger, 11, "a", 10)).isEqualTo(Wake.NAMED);
    assertThat(read(ledger, 11, "b", 10)).isEqualTo(Wake.EVERYONE);
    assertThat(read(ledger, 11, "b", 10)).isEqualTo(Wake.NONE);
  }

  @Test
  void thisJvmsOwnCommitCountsAsExamined() {
    PulseLedger ledger = new PulseLedger(10);
    String own = PulseText.format(11, "me", Set.of("x"), 10);
    ledger.committed(11, 10, own);
    assertThat(ledger.pulse(own, PulseText.parse(own))).isEqualTo(Wake.NONE);
    // A commit that did not pulse, then another JVM's pulse that names it as the one before.
    ledger.committed(12, 11, null);
    assertThat(read(ledger, 13, "a", 11)).isEqualTo(Wake.NAMED);
  }

  @Test
  void anOwnCommitAfterAnUnexaminedPulseDoesNotHideThatPulse() {
    PulseLedger ledger = new PulseLedger(10);
    // This JVM commits 12 before its watcher has read pulse 11.
    ledger.committed(12, 11, null);
    assertThat(read(ledger, 11, "a", 10)).isEqualTo(Wake.NAMED);
    // 12 was this JVM's own and did not pulse, so 13 following 11 misses nothing.
    assertThat(read(ledger, 13, "b", 11)).isEqualTo(Wake.NAMED);
  }
}
