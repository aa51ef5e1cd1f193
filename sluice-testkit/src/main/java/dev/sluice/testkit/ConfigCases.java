/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ConfigMismatchException;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.PoolSnapshot;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every user of a pool shares one configuration, compared whole. */
public abstract class ConfigCases extends ConformanceCase {
  protected ConfigCases(StoreFactory stores) {
    super(stores);
  }

  private static final LimiterConfig BASE = config(5, 10, 30L, 100, 100L);

  /** A full configuration; {@code null} leaves the expiry or the refill unset. */
  private static LimiterConfig config(
      long cap, long minTimeMillis, Long expirationSeconds, long reservoir, Long refreshAmount) {
    LimiterConfig.Builder b =
        LimiterConfig.builder()
            .maxConcurrent(cap)
            .minTime(Duration.ofMillis(minTimeMillis))
            .reservoir(reservoir);
    if (expirationSeconds != null) {
      b.expiration(Duration.ofSeconds(expirationSeconds));
    }
    if (refreshAmount != null) {
      b.reservoirRefresh(refreshAmount, Duration.ofMinutes(1));
    }
    return b.build();
  }

  /** {@link #BASE} with one field changed, once for every field. */
  private static List<LimiterConfig> variants() {
    return List.of(
        config(6, 10, 30L, 100, 100L),
        config(5, 11, 30L, 100, 100L),
        config(5, 10, null, 100, 100L),
        config(5, 10, 31L, 100, 100L),
        config(5, 10, 30L, 99, 100L),
        config(5, 10, 30L, 100, 101L),
        config(5, 10, 30L, 100, null));
  }

  @Test
  void anyDifferenceIsRefusedWhileThePoolIsOpen() throws Exception {
    Limiter limiter = open(BASE);
    Lease held = limiter.acquire(2);
    PoolSnapshot before = limiter.inspect();
    for (LimiterConfig other : variants()) {
      assertThatThrownBy(() -> open(other))
          .isInstanceOf(ConfigMismatchException.class)
          .hasMessageContaining(poolName);
    }
    PoolSnapshot after = limiter.inspect();
    assertThat(after.leases()).isEqualTo(before.leases());
    assertThat(after.reservoir()).isEqualTo(before.reservoir());
    assertThat(after.config()).isEqualTo(BASE);
    held.close();
  }

  @Test
  void anyDifferenceIsRefusedAfterEveryLimiterClosed() throws Exception {
    Limiter limiter = open(BASE);
    limiter.acquire(3).close();
    limiter.close();
    for (LimiterConfig other : variants()) {
      assertThatThrownBy(() -> open(other)).isInstanceOf(ConfigMismatchException.class);
    }
    Limiter again = open(BASE);
    assertThat(again.currentReservoir()).hasValue(97);
  }

  @Test
  void anEqualConfigurationBuiltAnotherWayIsAccepted() throws Exception {
    open(BASE);
    LimiterConfig same =
        LimiterConfig.builder()
            .reservoirRefresh(100, Duration.ofSeconds(60))
            .reservoir(100)
            .expiration(Duration.ofMillis(30_000))
            .minTime(Duration.ofNanos(9_000_001))
            .maxConcurrent(5)
            .build();
    assertThat(same).isEqualTo(BASE);
    assertThat(open(same).config()).isEqualTo(BASE);
  }

  @Test
  void invalidSettingsNameTheFieldTheValueAndTheRange() {
    assertThatThrownBy(() -> LimiterConfig.builder().maxConcurrent(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxConcurrent")
        .hasMessageContaining("was 0")
        .hasMessageContaining("allowed 1..");
    assertThatThrownBy(() -> LimiterConfig.builder().minTime(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("minTime");
    assertThatThrownBy(() -> LimiterConfig.builder().expiration(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expiration")
        .hasMessageContaining("PT0S");
    assertThatThrownBy(() -> LimiterConfig.builder().reservoir(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reservoir")
        .hasMessageContaining("was -1");
    assertThatThrownBy(() -> LimiterConfig.builder().reservoirRefresh(-1, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reservoirRefresh amount");
    assertThatThrownBy(() -> LimiterConfig.builder().reservoirRefresh(1, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reservoirRefresh interval");
    assertThatThrownBy(() -> LimiterConfig.builder().minTime(Duration.ofDays(4000)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("3650 days");
    assertThatThrownBy(() -> LimiterConfig.builder().minTime(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("minTime");
  }

  @Test
  void nullArgumentsAreRejectedAtOnce() {
    Limiter limiter = open(cap(1));
    assertThatThrownBy(() -> limiter.schedule(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> limiter.schedule(a -> 1, null))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> limiter.tryAcquire(1, null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> Limiter.open(store(), null)).isInstanceOf(NullPointerException.class);
    assertThat(limiter.inspect().waiters()).isEmpty();
  }
}
