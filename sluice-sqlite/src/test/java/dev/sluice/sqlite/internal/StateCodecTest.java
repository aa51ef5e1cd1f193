/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.LimiterConfig;
import dev.sluice.StoreFormatException;
import dev.sluice.spi.ControlState;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.WaiterRecord;
import dev.sluice.spi.support.PoolStateCodec;
import dev.sluice.spi.support.StoredPoolState;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The JSON row of format-1 pools against the binary row of format 2. */
class StateCodecTest {
  private static final LimiterConfig CONFIG = LimiterConfig.builder().maxConcurrent(8).build();

  private static PoolState sample() {
    PoolState s = PoolState.create(CONFIG, 1_764_800_000_000L, 64);
    s.putLease(new LeaseRecord(2, "a1b2c3d4e5f6", 7, 3, 1_764_800_000_100L, PoolState.NEVER, 1));
    s.addWaiter(new WaiterRecord(5, "a1b2c3d4e5f6", 9, 2, 1_764_800_000_200L, PoolState.NEVER, -1));
    return s;
  }

  @Test
  void theBinaryRowIsSmallerThanTheJson() {
    PoolState s = sample();
    assertThat(PoolStateCodec.write(s, 7, List.of()).length)
        .isLessThan(StateCodec.write(s).length() / 2);
  }

  @Test
  void theJsonReadsBackAsWritten() throws IOException {
    PoolState s = sample();
    StoredPoolState back = StateCodec.read(StateCodec.write(s));
    assertThat(back.scalars()).isEqualTo(s.scalars());
    assertThat(back.leases()).containsExactlyElementsOf(s.leases());
    assertThat(back.waiters()).containsExactlyElementsOf(s.waiters());
    assertThat(back.control()).isEqualTo(ControlState.NONE);
  }

  @Test
  void aFormatOnePoolRefusesControlStateItCannotKeep() {
    PoolState s = sample();
    s.control(
        new ControlState(
            ControlState.Cooldown.NONE,
            ControlState.Breaker.CLOSED,
            new ControlState.Drain(1, true)));
    assertThatThrownBy(() -> StateCodec.write(s))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("sluice-limiter-pool/1")
        .hasMessageContaining("nothing was changed");
  }
}
