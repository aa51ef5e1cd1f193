/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The recovery policy: defaults, validation, and its place in the pool's configuration. */
class RecoveryPolicyTest {
  @Test
  void theDefaultsAreSemaphilesAndLeaveTheStoredFormAsItWas() {
    RecoveryPolicy d = RecoveryPolicy.defaults();
    assertThat(d.cooldownBaseMillis()).isEqualTo(500);
    assertThat(d.cooldownFactor()).isEqualTo(2);
    assertThat(d.cooldownMaxMillis()).isEqualTo(10_000);
    assertThat(d.breakerPolicy()).isEmpty();
    assertThat(d.cooldownMillis(1)).isEqualTo(500);
    assertThat(d.cooldownMillis(5)).isEqualTo(8_000);
    assertThat(d.cooldownMillis(64)).isEqualTo(10_000);
    assertThat(LimiterConfig.builder().build().recovery()).isEqualTo(d);
    assertThat(LimiterConfig.builder().recovery(d).build().normalizedForm())
        .doesNotContain("recovery");
    BreakerPolicy b = BreakerPolicy.consecutive().build();
    assertThat(b.failureThreshold()).isEqualTo(5);
    assertThat(b.initialPauseMillis()).isEqualTo(30_000);
    assertThat(b.maxPauseMillis()).isEqualTo(300_000);
    assertThat(b.probeTimeoutMillis()).isEqualTo(60_000);
    assertThat(b.pauseMillis(0)).isEqualTo(30_000);
    assertThat(b.pauseMillis(3)).isEqualTo(240_000);
    assertThat(b.pauseMillis(4)).isEqualTo(300_000);
  }

  @Test
  void aRecoveryPolicyIsPartOfTheConfigurationAndReadsBack() {
    LimiterConfig consecutive =
        LimiterConfig.builder()
            .maxConcurrent(3)
            .recovery(
                RecoveryPolicy.builder()
                    .cooldown(Duration.ofMillis(250), 1.5, Duration.ofSeconds(4))
                    .breaker(BreakerPolicy.consecutive().failureThreshold(7).build())
                    .build())
            .build();
    LimiterConfig percentage =
        LimiterConfig.builder()
            .recovery(
                RecoveryPolicy.builder()
                    .breaker(
                        BreakerPolicy.percentage(0.25, 20, Duration.ofSeconds(10))
                            .initialPause(Duration.ofSeconds(5))
                            .maxPause(Duration.ofSeconds(50))
                            .factor(3)
                            .probeTimeout(Duration.ofSeconds(2))
                            .build())
                    .build())
            .build();
    for (LimiterConfig c : new LimiterConfig[] {consecutive, percentage}) {
      assertThat(LimiterConfig.parse(c.normalizedForm())).isEqualTo(c);
      assertThat(c).isNotEqualTo(LimiterConfig.builder().maxConcurrent(3).build());
    }
    assertThat(consecutive.normalizedForm()).contains(";recovery=250,1.5,4000,consecutive:7:");
  }

  @Test
  void badSettingsNameTheFieldTheValueAndWhatIsAllowed() {
    assertThatThrownBy(
            () ->
                RecoveryPolicy.builder().cooldown(Duration.ofSeconds(2), 2, Duration.ofSeconds(1)))
        .hasMessageContaining("cooldown max")
        .hasMessageContaining("1000 ms")
        .hasMessageContaining("2000 ms");
    assertThatThrownBy(
            () ->
                RecoveryPolicy.builder().cooldown(Duration.ofMillis(1), 17, Duration.ofSeconds(1)))
        .hasMessageContaining("cooldown factor must be between 1 and 16, was 17");
    assertThatThrownBy(() -> BreakerPolicy.consecutive().failureThreshold(0))
        .hasMessageContaining("failureThreshold must be at least 1")
        .hasMessageContaining("was 0");
    assertThatThrownBy(() -> BreakerPolicy.percentage(0, 5, Duration.ofSeconds(1)))
        .hasMessageContaining("failureRatio must be in (0, 1], was 0.0");
    assertThatThrownBy(() -> BreakerPolicy.percentage(1.5, 5, Duration.ofSeconds(1)))
        .hasMessageContaining("was 1.5");
    assertThatThrownBy(() -> BreakerPolicy.percentage(0.5, 0, Duration.ofSeconds(1)))
        .hasMessageContaining("minimumSamples must be at least 1");
    assertThatThrownBy(
            () -> BreakerPolicy.percentage(0.5, 5, Duration.ofSeconds(1)).failureThreshold(3))
        .hasMessageContaining("belongs to the consecutive rule");
    assertThatThrownBy(
            () ->
                BreakerPolicy.consecutive()
                    .initialPause(Duration.ofSeconds(10))
                    .maxPause(Duration.ofSeconds(5))
                    .build())
        .hasMessageContaining("maxPause must be at least initialPause");
    assertThatThrownBy(() -> BreakerPolicy.consecutive().probeTimeout(Duration.ZERO))
        .hasMessageContaining("probeTimeout");
    assertThatThrownBy(
            () ->
                LimiterConfig.builder()
                    .maxConcurrent(2)
                    .localHandOffs(4)
                    .recovery(
                        RecoveryPolicy.builder()
                            .breaker(BreakerPolicy.consecutive().build())
                            .build())
                    .build())
        .hasMessageContaining("localHandOffs=4 cannot be combined with recovery breaker");
  }
}
