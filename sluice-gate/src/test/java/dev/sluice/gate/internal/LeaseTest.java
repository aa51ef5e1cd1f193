/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static dev.sluice.gate.internal.GateFixture.LEASE;
import static dev.sluice.gate.internal.GateFixture.OFFER_TTL;
import static dev.sluice.gate.internal.GateFixture.T0;
import static dev.sluice.gate.internal.GateFixture.at;
import static dev.sluice.gate.internal.GateFixture.process;
import static dev.sluice.gate.internal.GateFixture.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.GateException;
import dev.sluice.gate.GateException.Code;
import dev.sluice.gate.PermitPhase;
import dev.sluice.gate.ReleaseOutcome;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.TicketState;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Untracked permits live on a lease: heartbeats and the agent's other verbs extend it, refused
 * verbs do not, and the sweep reclaims it when it runs out.
 */
class LeaseTest {
  private final GateFixture f = new GateFixture(2);

  @Test
  void markStartedGivesAnUntrackedLeaseThatHeartbeatsExtend() {
    String permit = f.grant("a", "op", 1);
    f.advance(1_000);

    Ticket t = f.permits.markStarted(permit, f.now);

    assertThat(t.phase()).isEqualTo(PermitPhase.RUNNING_UNTRACKED);
    assertThat(t.startDeadline()).isNull();
    assertThat(t.leaseDeadline()).isEqualTo(at(T0 + 1_000 + LEASE));
    assertThat(f.lastEvent().type()).isEqualTo("marked_started");

    f.advance(LEASE - 1);
    assertThat(f.sweep()).isFalse();
    assertThat(f.permits.heartbeat("a", f.now)).isEqualTo(1);
    assertThat(f.ticket("r1").leaseDeadline()).isEqualTo(at(f.now + LEASE));
    assertThat(f.permits.heartbeat("other", f.now)).isZero();

    f.advance(10);
    long events = f.state.lastEventSequence();
    assertThat(f.permits.markStarted(permit, f.now).leaseDeadline()).isEqualTo(at(f.now + LEASE));
    assertThat(f.state.lastEventSequence()).as("no second marked_started").isEqualTo(events);
  }

  @Test
  void anyVerbOfTheAgentExtendsItsLeases() {
    String permit = f.grant("a", "op", 1);
    f.permits.markStarted(permit, f.now);
    f.grant("b", "op", 1);

    f.advance(5_000);
    String queued = f.queue("a", "second", 1);
    assertThat(f.ticket("r1").leaseDeadline()).isEqualTo(at(f.now + LEASE));

    f.advance(5_000);
    f.machine.cancel("a", queued, f.now);
    assertThat(f.ticket("r1").leaseDeadline()).isEqualTo(at(f.now + LEASE));

    f.advance(5_000);
    AcquireOutcome elsewhere = f.acquire("a", "third", "test", 1);
    String other = ((AcquireOutcome.Granted) elsewhere).permitToken();
    f.advance(5_000);
    f.permits.start(other, process(7, 7), f.now);
    assertThat(f.ticket("r1").leaseDeadline()).isEqualTo(at(f.now + LEASE));

    f.advance(5_000);
    f.release(other);
    assertThat(f.ticket("r1").leaseDeadline()).isEqualTo(at(f.now + LEASE));

    f.advance(5_000);
    long before = f.ticket("r1").leaseDeadline().toEpochMilli();
    f.acquire("b", "op", 1);
    assertThat(f.ticket("r1").leaseDeadline().toEpochMilli())
        .as("another agent's verb")
        .isEqualTo(before);
  }

  @Test
  void anExpiredLeaseIsReclaimedAndItsCapacityPassesOn() {
    String permit = f.grant("a", "op", 2);
    f.permits.markStarted(permit, f.now);
    String waiting = f.queue("b", "op", 2);

    assertThat(f.elapse(LEASE - 1)).isFalse();
    assertThat(f.elapse(1)).isTrue();

    Ticket t = f.ticket("r1");
    assertThat(t.state()).isEqualTo(TicketState.RELEASED);
    assertThat(t.endReason()).isEqualTo("lease_expired");
    assertThat(f.eventTypes("r1")).endsWith("reclaimed");
    assertThat(f.offerIds()).containsExactly(waiting);
    ReleaseOutcome late = f.release(permit);
    assertThat(late.alreadyReleased()).isTrue();
    assertThat(late.reason()).isEqualTo("lease_expired");
    assertThat(refused(() -> f.permits.markStarted(permit, f.now)).code())
        .isEqualTo(Code.WRONG_STATE);
  }

  @Test
  void aRefusedVerbDoesNotExtendTheLease() {
    f.permits.markStarted(f.grant("a", "op", 1), f.now);
    String x = f.grant("x", "op", 1);
    f.queue("a", "second", 1);
    String cancelled = f.queue("a", "third", 1);
    f.release(x);
    String offer = f.offerToken("a", "second", 1);
    f.machine.cancel("a", cancelled, f.now);
    f.elapse(OFFER_TTL);
    Instant lease = f.ticket("r1").leaseDeadline();
    f.advance(1_000);

    List<GateException> refusals =
        List.of(
            refused(() -> f.claim(offer)),
            refused(() -> f.machine.decline(offer, f.now)),
            refused(() -> f.machine.cancel("a", "r1", f.now)),
            refused(() -> f.machine.rejoin("a", cancelled, f.now)),
            refused(() -> f.acquire("a", "big", 3)));

    assertThat(refusals)
        .extracting(GateException::code)
        .containsExactly(
            Code.OFFER_EXPIRED,
            Code.WRONG_STATE,
            Code.WRONG_STATE,
            Code.CANCELLED,
            Code.WEIGHT_EXCEEDS_CAPACITY);
    assertThat(f.ticket("r1").leaseDeadline()).isEqualTo(lease);
    assertThat(f.permits.heartbeat("a", f.now)).isEqualTo(1);
    assertThat(f.ticket("r1").leaseDeadline()).isEqualTo(at(f.now + LEASE));
  }
}
