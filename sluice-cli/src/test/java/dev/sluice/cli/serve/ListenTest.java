/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code --listen} values: what is read, and refusals that name the value and the rule. */
class ListenTest {
  @Test
  void theDefaultIsLoopback() {
    Listen l = Listen.parse(Listen.DEFAULT);

    assertThat(l.loopback()).isTrue();
    assertThat(l.wildcard()).isFalse();
    assertThat(l.port()).isEqualTo(7780);
  }

  @ParameterizedTest
  @CsvSource({
    "127.0.0.1:0, true, false, 127.0.0.1",
    "localhost:8080, true, false, localhost",
    "[::1]:7780, true, false, [::1]",
    "0.0.0.0:7780, false, true, 0.0.0.0",
    "[::]:7780, false, true, [::]"
  })
  void addressesAreRead(String text, boolean loopback, boolean wildcard, String urlHost) {
    Listen l = Listen.parse(text);

    assertThat(l.loopback()).isEqualTo(loopback);
    assertThat(l.wildcard()).isEqualTo(wildcard);
    assertThat(l.urlHost()).isEqualTo(urlHost);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "7780",
        ":7780",
        "127.0.0.1:",
        "127.0.0.1:-1",
        "127.0.0.1:65536",
        "127.0.0.1:web",
        "::1:7780",
        "bad host:80"
      })
  void badValuesAreRefusedNamingTheValue(String text) {
    assertThatThrownBy(() -> Listen.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("--listen '" + text + "' is not an address: ");
  }

  @Test
  void aBadPortSaysWhatIsAllowed() {
    assertThatThrownBy(() -> Listen.parse("127.0.0.1:70000"))
        .hasMessageContaining("from 0 to 65535");
  }
}
