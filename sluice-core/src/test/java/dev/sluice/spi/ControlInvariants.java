/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.spi.support.PoolStateCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The control-state invariants the model test checks around each command: nothing is admitted
 * during a cooldown or an open pause, a half-open circuit's probe is a live lease, a draining pool
 * refuses new work without changing anything, counters never go back, and the codec keeps it all.
 */
final class ControlInvariants {
  private ControlState before;
  private long now;

  /** Remembers the control state before a command at {@code now}. */
  void before(PoolState s, long now) {
    this.before = s.control();
    this.now = now;
  }

  void after(String at, PoolState s, PoolCommand<?> command, PoolOutcome<?> o) {
    ControlState c = s.control();
    boolean grantedNow =
        !o.grants().isEmpty()
            || (o.value() instanceof AcquireAnswer.Granted
                && command instanceof PoolCommand.Acquire);
    if (grantedNow) {
      assertThat(now)
          .as(at + "no admission during a cooldown")
          .isGreaterThanOrEqualTo(before.cooldown().until());
      boolean openBefore =
          before.breaker().phase() == ControlState.BreakerPhase.OPEN
              && now < before.breaker().openUntil();
      assertThat(openBefore).as(at + "no admission while the circuit is open").isFalse();
    }
    if (command instanceof PoolCommand.Acquire a && before.drain().draining() && !a.continuing()) {
      assertThat(o.value()).as(at + "new work refused").isInstanceOf(AcquireAnswer.Draining.class);
    }
    if (c.breaker().phase() == ControlState.BreakerPhase.HALF_OPEN
        && c.breaker().probe().leaseId() != 0) {
      assertThat(s.lease(c.breaker().probe().leaseId())).as(at + "the probe is live").isNotNull();
    }
    assertThat(c.cooldown().until())
        .as(at + "cooldown")
        .isGreaterThanOrEqualTo(before.cooldown().until());
    assertThat(c.cooldown().epoch()).isGreaterThanOrEqualTo(before.cooldown().epoch());
    assertThat(c.breaker().epoch()).isGreaterThanOrEqualTo(before.breaker().epoch());
    assertThat(c.drain().generation()).isGreaterThanOrEqualTo(before.drain().generation());
    if (!c.isNone()) {
      try {
        ControlState read = PoolStateCodec.read(PoolStateCodec.write(s, 0, List.of())).control();
        assertThat(read).as(at + "the codec keeps the control state").isEqualTo(c);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
