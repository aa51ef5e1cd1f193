/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static dev.sluice.gate.internal.GateFixture.POOL;
import static dev.sluice.gate.internal.GateFixture.START_DEADLINE;
import static dev.sluice.gate.internal.GateFixture.T0;
import static dev.sluice.gate.internal.GateFixture.at;
import static dev.sluice.gate.internal.GateFixture.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.GateException;
import dev.sluice.gate.PermitPhase;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.TicketState;
import org.junit.jupiter.api.Test;

/** Acquire: direct grants, strict FIFO with head-of-line blocking, weights and idempotency. */
class AcquireAndQueueTest {
  private final GateFixture f = new GateFixture(4);

  @Test
  void anIdlePoolWithAnEmptyQueueGrantsAtOnce() {
    AcquireOutcome o = f.acquire("a", "op", 2);

    assertThat(o).isInstanceOf(AcquireOutcome.Granted.class);
    assertThat(((AcquireOutcome.Granted) o).permitToken()).isEqualTo("t1");
    Ticket t = o.ticket();
    assertThat(t.state()).isEqualTo(TicketState.HELD);
    assertThat(t.phase()).isEqualTo(PermitPhase.CLAIMED);
    assertThat(t.startDeadline()).isEqualTo(at(T0 + START_DEADLINE));
    assertThat(t.position()).isZero();
    assertThat(t.pool()).isEqualTo(POOL);
    assertThat(t.label()).isEqualTo("label op");
    assertThat(f.pool().used()).isEqualTo(2);
    assertThat(f.lastEvent().type()).isEqualTo("granted");
  }

  @Test
  void aRequestThatDoesNotFitIsQueuedAndTakesNothing() {
    f.grant("a", "op", 3);
    AcquireOutcome o = f.acquire("b", "op", 2);

    assertThat(o).isInstanceOf(AcquireOutcome.Queued.class);
    assertThat(o.ticket().position()).isEqualTo(1);
    assertThat(f.pool().used()).isEqualTo(3);
    assertThat(f.lastEvent().type()).isEqualTo("queued");
  }

  @Test
  void aHeavyHeadBlocksLighterRequestsBehindIt() {
    String a = f.grant("a", "op", 3);
    String heavy = f.queue("b", "op", 4);
    // One unit is free and this request needs one, but the queue is not empty.
    String light = f.queue("c", "op", 1);

    assertThat(f.queueIds()).containsExactly(heavy, light);
    assertThat(f.ticket(light).position()).isEqualTo(2);
    assertThat(f.pool().used()).isEqualTo(3);

    f.release(a);
    assertThat(f.offerIds()).containsExactly(heavy);
    assertThat(f.queueIds()).containsExactly(light);
    assertThat(f.ticket(light).position()).isEqualTo(1);
    assertThat(f.pool().used()).isEqualTo(4);

    String heavyPermit = f.claim(f.offerToken("b", "op", 4)).permitToken();
    f.release(heavyPermit);
    assertThat(f.offerIds()).containsExactly(light);
  }

  @Test
  void severalHeadsAreOfferedWhileTheyFitAndAdmissionStopsAtTheFirstThatDoesNot() {
    String a = f.grant("a", "op", 4);
    String b = f.queue("b", "op", 1);
    String c = f.queue("c", "op", 2);
    String d = f.queue("d", "op", 2);
    String e = f.queue("e", "op", 1);

    f.release(a);

    assertThat(f.offerIds()).containsExactly(b, c);
    assertThat(f.queueIds()).containsExactly(d, e);
    assertThat(f.pool().used()).isEqualTo(3).isLessThanOrEqualTo(f.pool().capacity());
  }

  @Test
  void aWeightEqualToTheCapacityIsGranted() {
    AcquireOutcome o = f.acquire("a", "op", 4);

    assertThat(o).isInstanceOf(AcquireOutcome.Granted.class);
    assertThat(f.pool().used()).isEqualTo(4);
  }

  @Test
  void repeatingAGrantedAcquireAnswersTheSamePermitWithAFreshToken() {
    String first = f.grant("a", "op", 2);
    long events = f.state.lastEventSequence();

    AcquireOutcome again = f.acquire("a", "op", 2);

    assertThat(again).isInstanceOf(AcquireOutcome.Granted.class);
    String second = ((AcquireOutcome.Granted) again).permitToken();
    assertThat(second).isNotEqualTo(first);
    assertThat(again.ticket().requestId()).isEqualTo("r1");
    assertThat(f.pool().holders()).hasSize(1);
    assertThat(f.pool().used()).isEqualTo(2);
    assertThat(f.state.lastEventSequence()).isEqualTo(events);
    // Both tokens name the same permit: the first releases it, the second sees it released.
    assertThat(f.release(first).alreadyReleased()).isFalse();
    assertThat(f.release(second).alreadyReleased()).isTrue();
  }

  @Test
  void repeatingAQueuedAcquireKeepsItsPlaceAndQueuesNothingNew() {
    f.grant("x", "op", 4);
    String b = f.queue("b", "op", 1);
    String c = f.queue("c", "op", 1);
    long events = f.state.lastEventSequence();

    AcquireOutcome again = f.acquire("b", "op", 1);

    assertThat(again).isInstanceOf(AcquireOutcome.Queued.class);
    assertThat(again.ticket().requestId()).isEqualTo(b);
    assertThat(again.ticket().position()).isEqualTo(1);
    assertThat(f.queueIds()).containsExactly(b, c);
    assertThat(f.state.lastEventSequence()).isEqualTo(events);
  }

  @Test
  void aDifferentLabelUnderTheSameKeyIsNoConflict() {
    String id = f.acquire("a", "op", 2).ticket().requestId();

    AcquireOutcome again =
        f.machine.acquire(
            new dev.sluice.gate.AcquireRequest("a", "op", POOL, 2, "other", "why"), f.now);

    assertThat(again).isInstanceOf(AcquireOutcome.Granted.class);
    assertThat(again.ticket().requestId()).isEqualTo(id);
    assertThat(again.ticket().label()).isEqualTo("label op");
  }

  @Test
  void reusingAKeyWithAnotherWeightOrPoolIsAConflictThatChangesNothing() {
    f.grant("a", "op", 2);
    long events = f.state.lastEventSequence();
    int tokens = f.minted;

    AcquireOutcome weight = f.acquire("a", "op", 3);
    AcquireOutcome pool = f.machine.acquire(GateFixture.request("a", "op", "test", 2), f.now);

    assertThat(weight).isInstanceOf(AcquireOutcome.Conflict.class);
    assertThat(((AcquireOutcome.Conflict) weight).detail())
        .contains("'op'", "'a'", "r1", "pool build", "weight 2");
    assertThat(weight.ticket().requestId()).isEqualTo("r1");
    assertThat(weight.ticket().weight()).isEqualTo(2);
    assertThat(pool).isInstanceOf(AcquireOutcome.Conflict.class);
    assertThat(f.pool().holders()).hasSize(1);
    assertThat(f.pool().used()).isEqualTo(2);
    assertThat(f.views.status("test")).isEmpty();
    assertThat(f.state.lastEventSequence()).isEqualTo(events);
    assertThat(f.minted).as("a conflict reveals no token").isEqualTo(tokens);
  }

  @Test
  void theSameKeyOfAnotherAgentIsAnotherRequest() {
    String a = f.acquire("a", "op", 2).ticket().requestId();
    String b = f.acquire("b", "op", 2).ticket().requestId();

    assertThat(b).isNotEqualTo(a);
    assertThat(f.pool().holders()).extracting(Ticket::requestId).containsExactly(a, b);
  }

  @Test
  void aKeyWhoseRequestWasReleasedAnswersItUntilItIsPruned() {
    String first = f.grant("a", "op", 2);
    f.release(first);

    AcquireOutcome again = f.acquire("a", "op", 3);

    assertThat(again).isInstanceOf(AcquireOutcome.Conflict.class);
    assertThat(again.ticket().requestId()).isEqualTo("r1");
    assertThat(f.ticket("r1").state()).isEqualTo(TicketState.RELEASED);
    f.elapse(GateFixture.RETENTION + 1);
    AcquireOutcome afterPrune = f.acquire("a", "op", 3);
    assertThat(afterPrune).isInstanceOf(AcquireOutcome.Granted.class);
    assertThat(afterPrune.ticket().requestId()).isEqualTo("r2");
  }

  @Test
  void aWeightAboveTheCapacityIsRefusedAndNothingIsWritten() {
    f.grant("a", "op", 1);
    long events = f.state.lastEventSequence();

    GateException e = refused(() -> f.acquire("b", "op", 5));

    assertThat(e.code()).isEqualTo(GateException.Code.WEIGHT_EXCEEDS_CAPACITY);
    assertThat(e.code().wireName()).isEqualTo("weight_exceeds_capacity");
    assertThat(e.getMessage()).contains("pool build", "weight 5", "capacity 4");
    assertThat(f.state.lastEventSequence()).isEqualTo(events);
    assertThat(f.views.pending("b").isEmpty()).isTrue();
    assertThat(f.pool().queued()).isEmpty();
    // The refused key stays free, and no request id was used up.
    assertThat(f.acquire("b", "op", 3).ticket().requestId()).isEqualTo("r2");
  }

  @Test
  void aWeightAboveTheDefaultCapacityOfANewPoolDoesNotCreateThePool() {
    GateException e =
        refused(() -> f.machine.acquire(GateFixture.request("a", "op", "default", 5), f.now));

    assertThat(e.code()).isEqualTo(GateException.Code.WEIGHT_EXCEEDS_CAPACITY);
    assertThat(f.views.status("default")).isEmpty();
    assertThat(f.views.status()).isEmpty();
    assertThat(f.state.lastEventSequence()).isZero();
  }

  @Test
  void poolsAreIndependent() {
    f.grant("a", "op", 4);
    AcquireOutcome other = f.acquire("b", "op", "test", 4);

    assertThat(other).isInstanceOf(AcquireOutcome.Granted.class);
    assertThat(f.views.status())
        .extracting(p -> p.name() + "=" + p.used())
        .containsExactly("build=4", "test=4");
  }
}
