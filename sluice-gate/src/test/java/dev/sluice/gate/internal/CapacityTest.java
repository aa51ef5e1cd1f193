/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static dev.sluice.gate.internal.GateFixture.OFFER_TTL;
import static dev.sluice.gate.internal.GateFixture.POOL;
import static dev.sluice.gate.internal.GateFixture.T0;
import static dev.sluice.gate.internal.GateFixture.at;
import static dev.sluice.gate.internal.GateFixture.refused;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.CapacityChange;
import dev.sluice.gate.GateException.Code;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.TicketState;
import org.junit.jupiter.api.Test;

/** Run-time capacity changes: never preempt, fail the unsatisfiable, admit on increase. */
class CapacityTest {
  private final GateFixture f = new GateFixture(4);

  private CapacityChange set(int capacity) {
    return f.machine.setCapacity(POOL, capacity, "ops", "", f.now);
  }

  @Test
  void aDecreasePreemptsNothingAndAdmitsNothingUntilUsageIsUnder() {
    String a = f.grant("a", "op", 3);
    String b = f.grant("b", "op", 1);

    set(2);

    assertThat(f.pool().holders()).extracting(Ticket::state).containsOnly(TicketState.HELD);
    assertThat(f.pool().capacity()).isEqualTo(2);
    assertThat(f.pool().used()).isEqualTo(4);
    // The queue is empty, but the new request does not fit under the new capacity.
    String c = f.queue("c", "op", 2);

    f.release(a);
    assertThat(f.pool().used()).isEqualTo(1);
    assertThat(f.ticket(c).state()).as("1 + 2 > 2").isEqualTo(TicketState.QUEUED);

    f.release(b);
    assertThat(f.ticket(c).state()).isEqualTo(TicketState.OFFERED);
    assertThat(f.pool().used()).isEqualTo(2);
  }

  @Test
  void aDecreaseKeepsOutstandingOffers() {
    String blocker = f.grant("x", "op", 4);
    String b = f.queue("b", "op", 3);
    f.release(blocker);
    String offer = f.offerToken("b", "op", 3);

    set(1);

    assertThat(f.ticket(b).state()).isEqualTo(TicketState.OFFERED);
    assertThat(f.pool().used()).isEqualTo(3);
    assertThat(f.claim(offer).ticket().state()).isEqualTo(TicketState.HELD);
  }

  @Test
  void waitersHeavierThanTheNewCapacityFailAndTheQueueMoves() {
    f.grant("a", "op", 2);
    String heavy = f.queue("h", "op", 4);
    String light = f.queue("l", "op", 1);
    assertThat(f.ticket(light).state())
        .as("blocked by the heavy head")
        .isEqualTo(TicketState.QUEUED);

    set(3);

    Ticket failed = f.ticket(heavy);
    assertThat(failed.state()).isEqualTo(TicketState.FAILED);
    assertThat(failed.endReason()).isEqualTo("weight_exceeds_capacity");
    assertThat(f.eventTypes(heavy)).endsWith("failed");
    assertThat(f.ticket(light).state()).isEqualTo(TicketState.OFFERED);
    assertThat(f.queueIds()).isEmpty();
    // Its key is free: asking again is refused outright now.
    assertThat(refused(() -> f.acquire("h", "op", 4)).code())
        .isEqualTo(Code.WEIGHT_EXCEEDS_CAPACITY);
  }

  @Test
  void aPausedRequestHeavierThanTheNewCapacityFailsToo() {
    String blocker = f.grant("x", "op", 4);
    String p = f.queue("p", "op", 3);
    f.release(blocker);
    f.elapse(OFFER_TTL);
    assertThat(f.ticket(p).state()).isEqualTo(TicketState.PAUSED);

    set(2);

    assertThat(f.ticket(p).state()).isEqualTo(TicketState.FAILED);
    assertThat(f.ticket(p).endReason()).isEqualTo("weight_exceeds_capacity");
    assertThat(refused(() -> f.machine.rejoin("p", p, f.now)).code()).isEqualTo(Code.WRONG_STATE);
  }

  @Test
  void aWaiterThatStillFitsTheNewCapacityKeepsItsPlace() {
    f.grant("a", "op", 4);
    String b = f.queue("b", "op", 2);
    String c = f.queue("c", "op", 3);

    set(3);

    assertThat(f.queueIds()).containsExactly(b, c);
    assertThat(f.ticket(c).position()).isEqualTo(2);
  }

  @Test
  void anIncreaseAdmitsWaitersInOrder() {
    f.grant("a", "op", 4);
    String b = f.queue("b", "op", 2);
    String c = f.queue("c", "op", 2);
    String d = f.queue("d", "op", 3);

    set(8);

    assertThat(f.offerIds()).containsExactly(b, c);
    assertThat(f.queueIds()).containsExactly(d);
    assertThat(f.pool().used()).isEqualTo(8);
  }

  @Test
  void aNewCapacityDecidesWhatALaterAcquireMayAsk() {
    set(6);
    assertThat(f.acquire("a", "op", 6)).isInstanceOf(AcquireOutcome.Granted.class);
    set(2);
    assertThat(refused(() -> f.acquire("b", "op", 3)).getMessage()).contains("capacity 2");
  }

  @Test
  void theHistoryRecordsWhoChangedWhatWhen() {
    f.acquire("a", "op", 1);
    f.advance(1_000);
    f.machine.setCapacity(POOL, 6, "alice", "more cores", f.now);
    f.advance(1_000);
    f.machine.setCapacity(POOL, 3, "bob", "", f.now);
    f.machine.setCapacity("fresh", 9, "carol", "new pool", f.now);

    assertThat(f.state.history())
        .containsExactly(
            new CapacityChange(at(T0 + 1_000), POOL, "alice", 4, 6, "more cores"),
            new CapacityChange(at(T0 + 2_000), POOL, "bob", 6, 3, ""),
            new CapacityChange(at(T0 + 2_000), "fresh", "carol", 0, 9, "new pool"));
    assertThat(f.views.status("fresh").orElseThrow().capacity()).isEqualTo(9);
    assertThat(f.events())
        .filteredOn(e -> e.type().equals("capacity_changed"))
        .extracting(e -> e.agentId() + ":" + e.detail())
        .containsExactly("alice:4 -> 6", "bob:6 -> 3", "carol:new pool, capacity 9");
  }

  @Test
  void aBadChangeIsRefusedAndRecordsNothing() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> set(0))
        .withMessageContaining("capacity")
        .withMessageContaining("was 0");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> set(AcquireRequest.MAX_WEIGHT + 1))
        .withMessageContaining("was 1000001");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> f.machine.setCapacity("no pool", 2, "ops", "", f.now))
        .withMessageContaining("'no pool'");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> f.machine.setCapacity(POOL, 2, "", "", f.now))
        .withMessageStartingWith("actor");

    assertThat(f.state.history()).isEmpty();
    assertThat(f.views.status()).isEmpty();
    assertThat(f.state.lastEventSequence()).isZero();
  }
}
