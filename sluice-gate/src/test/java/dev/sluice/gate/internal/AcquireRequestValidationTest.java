/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import dev.sluice.gate.AcquireRequest;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bad input is refused when the request is built, naming the field and what was wrong. */
class AcquireRequestValidationTest {
  private static final String OK = "ok";

  static Stream<Arguments> badRequests() {
    String long129 = "x".repeat(129);
    return Stream.of(
        Arguments.of((Runnable) () -> req("", OK, "p", 1, "", ""), "agentId", "was 0"),
        Arguments.of((Runnable) () -> req(long129, OK, "p", 1, "", ""), "agentId", "was 129"),
        Arguments.of((Runnable) () -> req("a\u0007b", OK, "p", 1, "", ""), "agentId", "a\u0007b"),
        Arguments.of((Runnable) () -> req(OK, "", "p", 1, "", ""), "opKey", "was 0"),
        Arguments.of((Runnable) () -> req(OK, "op\tkey", "p", 1, "", ""), "opKey", "op\tkey"),
        Arguments.of((Runnable) () -> req(OK, OK, "bad pool", 1, "", ""), "pool", "'bad pool'"),
        Arguments.of((Runnable) () -> req(OK, OK, "", 1, "", ""), "pool", "''"),
        Arguments.of(
            (Runnable) () -> req(OK, OK, "p".repeat(65), 1, "", ""), "pool", "p".repeat(65)),
        Arguments.of((Runnable) () -> req(OK, OK, "../etc", 1, "", ""), "pool", "'../etc'"),
        Arguments.of((Runnable) () -> req(OK, OK, "p", 0, "", ""), "weight", "was 0"),
        Arguments.of((Runnable) () -> req(OK, OK, "p", -3, "", ""), "weight", "was -3"),
        Arguments.of(
            (Runnable) () -> req(OK, OK, "p", AcquireRequest.MAX_WEIGHT + 1, "", ""),
            "weight",
            "was 1000001"),
        Arguments.of((Runnable) () -> req(OK, OK, "p", 1, "y".repeat(201), ""), "label", "was 201"),
        Arguments.of((Runnable) () -> req(OK, OK, "p", 1, "l\nx", ""), "label", "l\nx"),
        Arguments.of(
            (Runnable) () -> req(OK, OK, "p", 1, "", "z".repeat(501)), "reason", "was 501"));
  }

  private static AcquireRequest req(
      String agent, String op, String pool, int weight, String label, String reason) {
    return new AcquireRequest(agent, op, pool, weight, label, reason);
  }

  @ParameterizedTest
  @MethodSource("badRequests")
  void aBadFieldIsRefusedNamingTheFieldAndTheValue(Runnable build, String field, String value) {
    assertThatIllegalArgumentException()
        .isThrownBy(build::run)
        .withMessageStartingWith(field)
        .withMessageContaining(value);
  }

  @Test
  void aMissingRequiredFieldIsANullPointerNamingTheField() {
    assertThatNullPointerException()
        .isThrownBy(() -> req(null, OK, "p", 1, "", ""))
        .withMessage("agentId");
    assertThatNullPointerException()
        .isThrownBy(() -> req(OK, null, "p", 1, "", ""))
        .withMessage("opKey");
    assertThatNullPointerException()
        .isThrownBy(() -> req(OK, OK, null, 1, "", ""))
        .withMessage("pool");
  }

  @Test
  void limitsAreInclusiveAndAbsentLabelAndReasonAreEmpty() {
    AcquireRequest r =
        req(
            "a".repeat(128),
            "o".repeat(128),
            "Az09._-".repeat(9) + "x",
            AcquireRequest.MAX_WEIGHT,
            null,
            null);

    assertThat(r.pool()).hasSize(64);
    assertThat(r.weight()).isEqualTo(1_000_000);
    assertThat(r.label()).isEmpty();
    assertThat(r.reason()).isEmpty();
    assertThat(req(OK, OK, "p", 1, "y".repeat(200), "z".repeat(500)).label()).hasSize(200);
  }
}
