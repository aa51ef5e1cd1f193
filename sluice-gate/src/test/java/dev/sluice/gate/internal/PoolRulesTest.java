/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static dev.sluice.gate.internal.GateFixture.refused;
import static dev.sluice.gate.internal.GateFixture.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.GateException;
import dev.sluice.gate.GateException.Code;
import dev.sluice.gate.PoolStatus;
import org.junit.jupiter.api.Test;

/** Which pools a request may use, and removing a pool. */
class PoolRulesTest {
  private final GateFixture f = new GateFixture(2);

  private AcquireOutcome acquire(String agent, String op, String pool) {
    return f.machine.acquire(request(agent, op, pool, 1), f.now);
  }

  @Test
  void theDefaultPoolIsMadeByItsFirstRequestWithTheDefaultCapacity() {
    assertThat(acquire("a", "op", "default")).isInstanceOf(AcquireOutcome.Granted.class);
    assertThat(f.views.status("default").map(PoolStatus::capacity)).contains(2);
  }

  @Test
  void aPoolNeverSetUpIsRefusedNamingTheKnownPoolsAndChangesNothing() {
    f.machine.setCapacity("build", 1, "ops", "", f.now);
    f.machine.setCapacity("ci", 1, "ops", "", f.now);
    long events = f.state.lastEventSequence();

    GateException e = refused(() -> acquire("a", "op", "biuld"));

    assertThat(e.code()).isEqualTo(Code.UNKNOWN_POOL);
    assertThat(e.getMessage())
        .contains("no pool 'biuld'", "known pools: build, ci", "sluice pool set biuld --capacity");
    assertThat(f.views.status()).extracting(PoolStatus::name).containsExactly("build", "ci");
    assertThat(f.state.lastEventSequence()).isEqualTo(events);
    assertThat(acquire("a", "op", "build").ticket().requestId())
        .as("no request id was used up")
        .isEqualTo("r1");
  }

  @Test
  void aPoolNameLookingLikeAnOptionIsRefused() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> request("a", "op", "-x", 1))
        .withMessageContaining("pool")
        .withMessageContaining("starting with a letter or digit")
        .withMessageContaining("'-x'");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> f.machine.setCapacity(".hidden", 1, "ops", "", f.now));
    assertThat(f.views.status()).isEmpty();
  }

  @Test
  void settingTheCapacityAPoolHasRecordsNothing() {
    f.machine.setCapacity("build", 1, "ops", "", f.now);
    long events = f.state.lastEventSequence();

    f.machine.setCapacity("build", 1, "ops", "again", f.now);

    assertThat(f.state.history()).hasSize(1);
    assertThat(f.state.lastEventSequence()).isEqualTo(events);
  }

  @Test
  void aPoolIsRemovedOnlyOnceNothingIsInIt() {
    f.machine.setCapacity("build", 1, "ops", "", f.now);
    String permit = ((AcquireOutcome.Granted) acquire("a", "op", "build")).permitToken();
    String queued = acquire("b", "op", "build").ticket().requestId();

    GateException busy = refused(() -> f.machine.removePool("build", "ops", "", f.now));
    assertThat(busy.code()).isEqualTo(Code.POOL_BUSY);
    assertThat(busy.getMessage()).contains("pool build", "2 live requests");
    f.machine.cancel("b", queued, f.now);
    f.permits.release(permit, "", f.now);

    assertThat(f.machine.removePool("build", "ops", "unused", f.now)).isEqualTo(1);
    assertThat(f.views.status()).isEmpty();
    assertThat(f.lastEvent().type()).isEqualTo("pool_removed");
    assertThat(f.lastEvent().detail()).isEqualTo("capacity 1: unused");
    assertThat(refused(() -> acquire("c", "op", "build")).code()).isEqualTo(Code.UNKNOWN_POOL);
    assertThat(refused(() -> f.machine.removePool("build", "ops", "", f.now)).code())
        .isEqualTo(Code.UNKNOWN_POOL);
  }
}
