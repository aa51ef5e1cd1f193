/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LimiterConfig;
import org.junit.jupiter.api.Test;

/** The pool-wide drain in the pure algorithm (semaphile §4.15). */
class DrainRulesTest extends ControlFixture {
  @Test
  void aDrainRefusesNewWorkAndChangesNothingForIt() {
    PoolState s = pool(LimiterConfig.builder().maxConcurrent(1).reservoir(5).build());
    ControlView v = at(s, T0, new PoolCommand.Drain("a")).value();
    assertThat(v.control().drain()).isEqualTo(new ControlState.Drain(1, true));
    assertThat(v.settled()).isTrue();
    s.markClean();
    assertThat(acquire(s, T0, "b", 1, -1)).isEqualTo(new AcquireAnswer.Draining(1));
    assertThat(s.isDirty()).isFalse();
    assertThat(s.reservoir()).isEqualTo(5);
  }

  @Test
  void workAcceptedBeforeTheDrainGoesOnAndTheDrainSettlesAfterIt() {
    PoolState s = pool(LimiterConfig.builder().maxConcurrent(1).build());
    LeaseRecord held = grant(s, T0, "a", 1);
    assertThat(acquire(s, T0, "b", 2, -1)).isInstanceOf(AcquireAnswer.Queued.class);
    ControlView v = at(s, T0, new PoolCommand.Drain("a")).value();
    assertThat(v.settled()).isFalse();
    PoolOutcome<Boolean> release = at(s, T0 + 1, new PoolCommand.Release("a", held.id()));
    assertThat(release.grants()).as("the queued request was accepted before").hasSize(1);
    LeaseRecord queued = release.grants().get(0);
    AcquireAnswer retry =
        at(s, T0 + 2, new PoolCommand.Acquire("a", 3, 1, -1, -1, false, true)).value();
    assertThat(retry).as("a retry of earlier work").isInstanceOf(AcquireAnswer.Queued.class);
    PoolOutcome<Boolean> r2 = at(s, T0 + 3, new PoolCommand.Release("b", queued.id()));
    at(s, T0 + 4, new PoolCommand.Release("a", r2.grants().get(0).id()));
    assertThat(at(s, T0 + 4, new PoolCommand.ReadControl("x")).value().settled()).isTrue();
  }

  @Test
  void drainingIsIdempotentAndAStaleGenerationCannotResume() {
    PoolState s = pool(LimiterConfig.builder().build());
    at(s, T0, new PoolCommand.Drain("a"));
    ControlView again = at(s, T0, new PoolCommand.Drain("b")).value();
    assertThat(again.control().drain().generation()).isEqualTo(1);
    assertThat(at(s, T0, new PoolCommand.Resume("a", 1)).value()).isTrue();
    assertThat(acquire(s, T0, "a", 1, 0)).isInstanceOf(AcquireAnswer.Granted.class);
    at(s, T0, new PoolCommand.Drain("a"));
    assertThat(at(s, T0, new PoolCommand.Resume("a", 1)).value()).isFalse();
    assertThat(s.control().drain()).isEqualTo(new ControlState.Drain(2, true));
    assertThat(at(s, T0, new PoolCommand.ReadControl("a")).value().settled()).isFalse();
  }
}
