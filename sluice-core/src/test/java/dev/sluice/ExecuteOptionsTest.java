/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Managed execution's values: option defaults and checks, outcomes and the stock classifiers. */
class ExecuteOptionsTest {
  @Test
  void theDefaultsAreTheDocumentedOnes() {
    ExecuteOptions d = ExecuteOptions.defaults();
    assertThat(d.replaySafe()).isFalse();
    assertThat(d.deadline()).contains(Duration.ofMinutes(5));
    assertThat(d.attemptTimeout()).contains(Duration.ofSeconds(60));
    assertThat(d.schedule()).isSameAs(ScheduleOptions.defaults());
    RetryPolicy retry = d.retry();
    assertThat(retry.maxAttempts()).isEqualTo(3);
    assertThat(retry.baseDelay()).isEqualTo(Duration.ofMillis(500));
    assertThat(retry.maxDelay()).isEqualTo(Duration.ofSeconds(10));
    assertThat(retry.factor()).isEqualTo(2);
    assertThat(retry.jitter()).isEqualTo(0.2);
    assertThat(d.classifier().classify("x", null)).isEqualTo(AttemptOutcome.success());
    assertThat(d.classifier().classify(null, new IOException()))
        .isEqualTo(AttemptOutcome.neutral());
  }

  @Test
  void eachLimitCanBeTurnedOff() {
    ExecuteOptions off = ExecuteOptions.builder().noDeadline().noAttemptTimeout().noRetry().build();
    assertThat(off.deadline()).isEmpty();
    assertThat(off.deadlineMillis()).isEqualTo(-1);
    assertThat(off.attemptTimeout()).isEmpty();
    assertThat(off.attemptTimeoutMillis()).isEqualTo(-1);
    assertThat(off.retry().maxAttempts()).isEqualTo(1);
    assertThat(off.toString()).contains("deadline=none", "attemptTimeout=none", "1 attempts");
  }

  @Test
  void badValuesNameTheFieldTheValueAndTheRange() {
    assertThatThrownBy(() -> ExecuteOptions.builder().deadline(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("deadline must be between 1 ms and PT87600H (3650 days), was PT0S");
    assertThatThrownBy(() -> ExecuteOptions.builder().attemptTimeout(Duration.ofMillis(-5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("attemptTimeout must be between 1 ms and PT87600H (3650 days), was PT-0.005S");
    assertThatThrownBy(() -> ExecuteOptions.builder().deadline(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("deadline must not be null");
    assertThatThrownBy(() -> ExecuteOptions.builder().classifier(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("classifier must not be null");
    assertThatThrownBy(() -> ExecuteOptions.builder().retry(null))
        .hasMessage("retry must not be null");
    assertThatThrownBy(() -> RetryPolicy.builder().maxAttempts(0).build())
        .hasMessageContaining("maxAttempts must be at least 1")
        .hasMessageContaining("was 0");
    assertThatThrownBy(() -> AttemptOutcome.throttle(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("retryAfter must be zero or more, was PT-1S");
  }

  @Test
  void onlyTransientOutcomesAllowARetryAndWithoutRetryKeepsTheKind() {
    assertThat(AttemptOutcome.success().allowsRetry()).isFalse();
    assertThat(AttemptOutcome.neutral().allowsRetry()).isFalse();
    assertThat(AttemptOutcome.neutral().isTransient()).isFalse();
    assertThat(AttemptOutcome.throttle().allowsRetry()).isTrue();
    assertThat(AttemptOutcome.serviceFailure().allowsRetry()).isTrue();
    AttemptOutcome held = AttemptOutcome.throttle(Duration.ofSeconds(3)).withoutRetry();
    assertThat(held)
        .isEqualTo(new AttemptOutcome.Throttle(Optional.of(Duration.ofSeconds(3)), false));
    assertThat(held.isTransient()).isTrue();
    assertThat(held.allowsRetry()).isFalse();
    assertThat(AttemptOutcome.serviceFailure().withoutRetry().isTransient()).isTrue();
    assertThat(AttemptOutcome.success().withoutRetry()).isEqualTo(AttemptOutcome.success());
  }

  @Test
  void theServiceFailureClassifierRetriesExceptionsButNotErrors() {
    AttemptClassifier c = AttemptClassifier.exceptionsAreServiceFailures();
    assertThat(c.classify("x", null)).isEqualTo(AttemptOutcome.success());
    assertThat(c.classify(null, new IOException())).isEqualTo(AttemptOutcome.serviceFailure());
    assertThat(c.classify(null, new AssertionError())).isEqualTo(AttemptOutcome.neutral());
  }

  @Test
  void theBackoffPinsTheReferenceValues() {
    RetryPolicy p = RetryPolicy.ofDefaults();
    assertThat(p.delayAfter(1, 0)).isEqualTo(Duration.ofMillis(400));
    assertThat(p.delayAfter(1, 0.999_999)).isEqualTo(Duration.ofMillis(600));
    assertThat(p.delayAfter(2, 0.5)).isEqualTo(Duration.ofMillis(1000));
    assertThat(p.delayAfter(9, 0.999_999)).isEqualTo(Duration.ofSeconds(10));
    assertThat(p.delayAfter(9, 0)).isEqualTo(Duration.ofSeconds(8));
  }
}
