/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Configuration values: normalization, the stored form, and the retry arithmetic. */
class ConfigValuesTest {
  @Test
  void theNormalizedFormReadsBackEqual() {
    LimiterConfig full =
        LimiterConfig.builder()
            .maxConcurrent(5)
            .minTime(Duration.ofMillis(100))
            .expiration(Duration.ofSeconds(30))
            .reservoir(100)
            .reservoirRefresh(100, Duration.ofMinutes(1))
            .build();
    assertThat(LimiterConfig.parse(full.normalizedForm())).isEqualTo(full);
    LimiterConfig empty = LimiterConfig.builder().build();
    assertThat(LimiterConfig.parse(empty.normalizedForm())).isEqualTo(empty);
    assertThat(empty.normalizedForm())
        .isEqualTo(
            "maxConcurrent=unset;minTimeMillis=0;expirationMillis=unset;reservoir=unset;"
                + "reservoirRefreshAmount=unset;reservoirRefreshIntervalMillis=unset");
  }

  @Test
  void localHandOffsReadBackAndLeaveTheDefaultFormAsItWas() {
    LimiterConfig passing = LimiterConfig.builder().maxConcurrent(4).localHandOffs(16).build();
    assertThat(passing.normalizedForm()).endsWith(";localHandOffs=16");
    assertThat(LimiterConfig.parse(passing.normalizedForm())).isEqualTo(passing);
    assertThat(passing).isNotEqualTo(LimiterConfig.builder().maxConcurrent(4).build());
    assertThat(LimiterConfig.builder().maxConcurrent(4).localHandOffs(0).build().normalizedForm())
        .doesNotContain("localHandOffs");
  }

  @Test
  void localHandOffsAreRefusedWithSettingsThatNeedEveryAdmission() {
    assertThatThrownBy(() -> LimiterConfig.builder().localHandOffs(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("localHandOffs must be between 0 and 65536, was -1");
    assertThatThrownBy(() -> LimiterConfig.builder().localHandOffs(65_537))
        .hasMessageContaining("was 65537");
    assertThatThrownBy(
            () -> LimiterConfig.builder().localHandOffs(8).minTime(Duration.ofMillis(5)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("localHandOffs=8 cannot be combined with minTime (5 ms)");
    assertThatThrownBy(
            () ->
                LimiterConfig.builder().expiration(Duration.ofSeconds(1)).localHandOffs(8).build())
        .hasMessageContaining("expiration (1000 ms)");
    assertThatThrownBy(() -> LimiterConfig.builder().reservoir(10).localHandOffs(8).build())
        .hasMessageContaining("reservoir (10)");
    assertThatThrownBy(
            () ->
                LimiterConfig.builder()
                    .reservoirRefresh(3, Duration.ofSeconds(1))
                    .localHandOffs(8)
                    .build())
        .hasMessageContaining("reservoirRefresh (3 tokens)");
  }

  @Test
  void theFingerprintIsTheHashOfTheNormalizedForm() {
    LimiterConfig a = LimiterConfig.builder().maxConcurrent(3).build();
    LimiterConfig b = LimiterConfig.builder().maxConcurrent(3).minTime(Duration.ZERO).build();
    assertThat(a.fingerprint()).isEqualTo(b.fingerprint()).hasSize(64).matches("[0-9a-f]+");
    assertThat(LimiterConfig.builder().maxConcurrent(4).build().fingerprint())
        .isNotEqualTo(a.fingerprint());
  }

  @Test
  void garbageIsNotAConfiguration() {
    assertThatThrownBy(() -> LimiterConfig.parse("maxConcurrent=5"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxConcurrent=5");
    assertThatThrownBy(
            () ->
                LimiterConfig.parse(
                    LimiterConfig.builder().build().normalizedForm().replace("0", "x")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void subMillisecondDurationsRoundUp() {
    assertThat(LimiterConfig.builder().minTime(Duration.ofNanos(1)).build().minTime())
        .isEqualTo(Duration.ofMillis(1));
    assertThat(
            ScheduleOptions.builder()
                .queueTimeout(Duration.ofNanos(1_000_001))
                .build()
                .queueTimeout())
        .contains(Duration.ofMillis(2));
  }

  @Test
  void scheduleOptionsResolveTheLeaseLifetime() {
    LimiterConfig pool = LimiterConfig.builder().expiration(Duration.ofSeconds(9)).build();
    assertThat(ScheduleOptions.defaults().leaseLifetimeMillis(pool)).isEqualTo(9_000);
    assertThat(ScheduleOptions.builder().noExpiration().build().leaseLifetimeMillis(pool))
        .isEqualTo(-1);
    assertThat(
            ScheduleOptions.builder()
                .expiration(Duration.ofSeconds(2))
                .build()
                .leaseLifetimeMillis(pool))
        .isEqualTo(2_000);
  }

  @Test
  void retryDelaysFollowTheDocumentedFormula() {
    RetryPolicy p = RetryPolicy.ofDefaults();
    assertThat(p.delayAfter(1, 0.0)).isEqualTo(Duration.ofMillis(400));
    assertThat(p.delayAfter(1, 0.999999)).isEqualTo(Duration.ofMillis(600));
    assertThat(p.delayAfter(2, 0.5)).isEqualTo(Duration.ofMillis(1000));
    assertThat(p.delayAfter(30, 0.5)).isEqualTo(Duration.ofSeconds(10));
    assertThat(p.allowsRetry(2, new RuntimeException())).isTrue();
    assertThat(p.allowsRetry(3, new RuntimeException())).isFalse();
    assertThat(p.allowsRetry(1, new AssertionError())).isFalse();
  }

  @Test
  void invalidRetryPoliciesNameTheField() {
    assertThatThrownBy(() -> RetryPolicy.builder().maxAttempts(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxAttempts")
        .hasMessageContaining("was 0");
    assertThatThrownBy(
            () ->
                RetryPolicy.builder().delays(Duration.ofSeconds(2), Duration.ofSeconds(1)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxDelay");
    assertThatThrownBy(() -> RetryPolicy.builder().factor(17).build())
        .hasMessageContaining("factor");
    assertThatThrownBy(() -> RetryPolicy.builder().jitter(-0.1).build())
        .hasMessageContaining("jitter");
  }
}
