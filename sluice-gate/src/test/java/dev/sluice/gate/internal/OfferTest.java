/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static dev.sluice.gate.internal.GateFixture.OFFER_TTL;
import static dev.sluice.gate.internal.GateFixture.START_DEADLINE;
import static dev.sluice.gate.internal.GateFixture.at;
import static dev.sluice.gate.internal.GateFixture.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.GateException.Code;
import dev.sluice.gate.Permit;
import dev.sluice.gate.PermitPhase;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.TicketState;
import org.junit.jupiter.api.Test;

/** Offers: the reservation, claim, decline, expiry, rejoin and cancel. */
class OfferTest {
  private final GateFixture f = new GateFixture(2);

  /** b (r2) and c (r3) wait behind x's permit (r1); releasing it offers r2. */
  private String offerToB() {
    String blocker = f.grant("x", "op", 2);
    f.queue("b", "op", 2);
    f.queue("c", "op", 2);
    f.advance(1_000);
    f.release(blocker);
    return f.offerToken("b", "op", 2);
  }

  @Test
  void anOfferReservesItsWeightUntilItsTtl() {
    offerToB();
    long offeredAt = f.now;

    Ticket b = f.ticket("r2");
    assertThat(b.state()).isEqualTo(TicketState.OFFERED);
    assertThat(b.offerExpiresAt()).isEqualTo(at(offeredAt + OFFER_TTL));
    assertThat(f.pool().used()).isEqualTo(2);
    assertThat(f.offerIds()).containsExactly("r2");
    assertThat(f.queueIds()).containsExactly("r3");
    assertThat(f.eventTypes("r2")).containsExactly("queued", "offered");

    assertThat(f.acquire("d", "op", 1)).isInstanceOf(AcquireOutcome.Queued.class);
    assertThat(f.elapse(OFFER_TTL - 1)).isFalse();
    assertThat(f.ticket("r2").state()).isEqualTo(TicketState.OFFERED);
  }

  @Test
  void aClaimTurnsTheOfferIntoAClaimedPermitWithAStartDeadline() {
    String offer = offerToB();
    f.advance(3_000);

    Permit p = f.claim(offer);

    Ticket t = p.ticket();
    assertThat(t.state()).isEqualTo(TicketState.HELD);
    assertThat(t.phase()).isEqualTo(PermitPhase.CLAIMED);
    assertThat(t.startDeadline()).isEqualTo(at(f.now + START_DEADLINE));
    assertThat(t.offerExpiresAt()).isNull();
    assertThat(p.permitToken()).isNotEqualTo(offer);
    assertThat(f.pool().used()).isEqualTo(2);
    assertThat(f.lastEvent().type()).isEqualTo("claimed");
    assertThat(f.permits.markStarted(p.permitToken(), f.now).phase())
        .isEqualTo(PermitPhase.RUNNING_UNTRACKED);
  }

  @Test
  void claimingAgainWhileHeldAnswersTheSamePermit() {
    String offer = offerToB();
    Permit first = f.claim(offer);
    f.advance(1_000);

    Permit second = f.claim(offer);

    assertThat(second.ticket().requestId()).isEqualTo("r2");
    assertThat(second.ticket().startDeadline()).isEqualTo(first.ticket().startDeadline());
    assertThat(second.permitToken()).isNotEqualTo(first.permitToken());
    assertThat(f.eventTypes("r2")).containsOnlyOnce("claimed");

    f.release(first.permitToken());
    assertThat(refused(() -> f.claim(offer)).code()).isEqualTo(Code.WRONG_STATE);
  }

  @Test
  void aClaimAfterTheStartDeadlineReclaimedThePermitSaysSo() {
    String offer = offerToB();
    String permit = f.claim(offer).permitToken();

    f.elapse(START_DEADLINE);

    assertThat(f.ticket("r2").endReason()).isEqualTo("start_deadline_passed");
    assertThat(refused(() -> f.claim(offer)).code()).isEqualTo(Code.START_DEADLINE_PASSED);
    assertThat(f.release(permit).alreadyReleased()).isTrue();
    assertThat(f.offerIds()).containsExactly("r3");
  }

  @Test
  void aDeclinePausesTheRequestAndPassesTheCapacityOn() {
    String offer = offerToB();

    Ticket declined = f.machine.decline(offer, f.now);

    assertThat(declined.state()).isEqualTo(TicketState.PAUSED);
    assertThat(declined.endReason()).isEqualTo("declined");
    assertThat(f.offerIds()).containsExactly("r3");
    assertThat(f.pool().paused()).extracting(Ticket::requestId).containsExactly("r2");
    assertThat(f.pool().used()).isEqualTo(2);
    // Idempotent, and it does not pass anything on twice.
    assertThat(f.machine.decline(offer, f.now).state()).isEqualTo(TicketState.PAUSED);
    assertThat(f.offerIds()).containsExactly("r3");
    assertThat(f.eventTypes("r2")).containsOnlyOnce("declined");
    assertThat(refused(() -> f.claim(offer)).code()).isEqualTo(Code.WRONG_STATE);
    assertThat(f.acquire("b", "op", 2)).isInstanceOf(AcquireOutcome.Paused.class);
  }

  @Test
  void aLapsedOfferPausesAtTheSweepAndPassesTheCapacityOn() {
    offerToB();
    long offeredAt = f.now;

    assertThat(f.elapse(OFFER_TTL)).isTrue();

    Ticket b = f.ticket("r2");
    assertThat(b.state()).isEqualTo(TicketState.PAUSED);
    assertThat(b.endReason()).isEqualTo("offer_expired");
    assertThat(b.since()).isEqualTo(at(offeredAt + OFFER_TTL));
    assertThat(b.offerExpiresAt()).isNull();
    assertThat(f.eventTypes("r2")).endsWith("offer_expired");
    assertThat(f.offerIds()).containsExactly("r3");
    assertThat(f.ticket("r3").offerExpiresAt()).isEqualTo(at(f.now + OFFER_TTL));
    assertThat(f.pool().used()).isEqualTo(2);
  }

  @Test
  void aClaimAfterTheOfferLapsedIsRefusedAndChangesNothing() {
    String offer = offerToB();
    f.elapse(OFFER_TTL);
    long events = f.state.lastEventSequence();

    var e = refused(() -> f.claim(offer));

    assertThat(e.code()).isEqualTo(Code.OFFER_EXPIRED);
    assertThat(e.getMessage()).contains("r2", "rejoin");
    assertThat(f.ticket("r2").state()).isEqualTo(TicketState.PAUSED);
    assertThat(f.offerIds()).containsExactly("r3");
    assertThat(f.state.lastEventSequence()).isEqualTo(events);
    assertThat(refused(() -> f.machine.decline(offer, f.now)).code()).isEqualTo(Code.WRONG_STATE);
  }

  @Test
  void aRejoinGoesToTheTailAndNeverJumpsTheQueue() {
    offerToB();
    f.queue("d", "op", 1);
    f.elapse(OFFER_TTL);
    assertThat(f.queueIds()).containsExactly("r4");

    AcquireOutcome rejoined = f.machine.rejoin("b", "r2", f.now);

    assertThat(rejoined).isInstanceOf(AcquireOutcome.Queued.class);
    assertThat(rejoined.ticket().position()).isEqualTo(2);
    assertThat(rejoined.ticket().endReason()).isEmpty();
    assertThat(f.queueIds()).containsExactly("r4", "r2");
    assertThat(f.lastEvent().type()).isEqualTo("rejoined");
    long events = f.state.lastEventSequence();
    // Rejoining a queued request answers it as it stands.
    assertThat(f.machine.rejoin("b", "r2", f.now).ticket().position()).isEqualTo(2);
    assertThat(f.state.lastEventSequence()).isEqualTo(events);
  }

  @Test
  void aRejoinIntoAnIdlePoolIsOfferedAgain() {
    String old = offerToB();
    f.machine.cancel("c", "r3", f.now);
    f.elapse(OFFER_TTL);
    assertThat(f.pool().used()).isZero();

    AcquireOutcome rejoined = f.machine.rejoin("b", "r2", f.now);

    assertThat(rejoined).isInstanceOf(AcquireOutcome.Offered.class);
    String fresh = ((AcquireOutcome.Offered) rejoined).offerToken();
    assertThat(refused(() -> f.claim(old)).code()).isEqualTo(Code.STALE_TOKEN);
    assertThat(f.claim(fresh).ticket().state()).isEqualTo(TicketState.HELD);
  }

  @Test
  void aTokenOfAnEarlierOfferIsStaleOnceTheRequestIsOfferedAgain() {
    String old = offerToB();
    f.elapse(OFFER_TTL);
    f.machine.rejoin("b", "r2", f.now);
    assertThat(refused(() -> f.claim(old)).code())
        .as("queued again, not offered")
        .isEqualTo(Code.WRONG_STATE);
    assertThat(f.ticket("r2").state()).isEqualTo(TicketState.QUEUED);

    f.release(f.claim(f.offerToken("c", "op", 2)).permitToken());
    assertThat(f.ticket("r2").state()).isEqualTo(TicketState.OFFERED);

    var e = refused(() -> f.claim(old));
    assertThat(e.code()).isEqualTo(Code.STALE_TOKEN);
    assertThat(e.getMessage()).contains("r2");
    assertThat(refused(() -> f.machine.decline(old, f.now)).code()).isEqualTo(Code.STALE_TOKEN);
    assertThat(f.ticket("r2").state()).isEqualTo(TicketState.OFFERED);
    assertThat(f.claim(f.offerToken("b", "op", 2)).ticket().state()).isEqualTo(TicketState.HELD);
  }

  @Test
  void cancellingAnOfferPassesTheCapacityOnAndIsIdempotent() {
    offerToB();

    Ticket cancelled = f.machine.cancel("b", "r2", f.now);

    assertThat(cancelled.state()).isEqualTo(TicketState.CANCELLED);
    assertThat(cancelled.endReason()).isEqualTo("cancelled by b while offered");
    assertThat(f.offerIds()).containsExactly("r3");
    assertThat(f.machine.cancel("b", "r2", f.now).state()).isEqualTo(TicketState.CANCELLED);
    assertThat(f.eventTypes("r2")).containsOnlyOnce("cancelled");
    assertThat(f.offerIds()).containsExactly("r3");
  }

  @Test
  void aCancelledRequestsKeyAnswersCancelledInsteadOfQueueingAgain() {
    f.grant("a", "op", 2);
    String queued = f.queue("b", "op", 1);
    f.machine.cancel("b", queued, "b (pid 42)", f.now);
    int events = f.events().size();

    var again = refused(() -> f.acquire("b", "op", 1));
    assertThat(again.code()).isEqualTo(Code.CANCELLED);
    assertThat(again.getMessage()).contains(queued, "cancelled by b (pid 42) while queued");
    assertThat(refused(() -> f.machine.rejoin("b", queued, f.now)).code())
        .isEqualTo(Code.CANCELLED);
    assertThat(f.queueIds()).as("nothing queued again").isEmpty();
    assertThat(f.events()).as("a refusal changes nothing").hasSize(events);
    // Another key, or another agent's same key, asks afresh.
    assertThat(f.queue("b", "op2", 1)).isNotEqualTo(queued);
    assertThat(f.queue("c", "op", 1)).isNotEqualTo(queued);
  }

  @Test
  void aWithdrawnRequestLeavesItsKeyFreeAndSaysWhy() {
    f.grant("a", "op", 2);
    String queued = f.queue("b", "op", 1);

    assertThat(f.machine.withdraw("c", queued, "queue_timeout", f.now)).isFalse();
    assertThat(f.machine.withdraw("b", queued, "queue_timeout", f.now)).isTrue();

    assertThat(f.ticket(queued).endReason()).isEqualTo("queue_timeout");
    assertThat(f.lastEvent().type()).isEqualTo("withdrawn");
    assertThat(f.lastEvent().detail()).isEqualTo("queue_timeout, was queued");
    assertThat(f.machine.withdraw("b", queued, "queue_timeout", f.now)).isFalse();
    assertThat(f.queue("b", "op", 1)).isNotEqualTo(queued);
  }

  @Test
  void cancellingAQueuedOrPausedRequestTakesItOutOfTheQueue() {
    offerToB();
    f.queue("d", "op", 1);
    assertThat(f.queueIds()).containsExactly("r3", "r4");

    f.machine.cancel("c", "r3", f.now);
    assertThat(f.queueIds()).containsExactly("r4");
    assertThat(f.ticket("r4").position()).isEqualTo(1);

    f.elapse(OFFER_TTL);
    assertThat(f.ticket("r2").state()).isEqualTo(TicketState.PAUSED);
    assertThat(f.machine.cancel("b", "r2", f.now).state()).isEqualTo(TicketState.CANCELLED);
    assertThat(f.pool().paused()).isEmpty();
  }

  @Test
  void cancelAndRejoinCheckTheRequestAndItsOwner() {
    String offer = offerToB();

    assertThat(refused(() -> f.machine.cancel("c", "r2", f.now)).code()).isEqualTo(Code.NOT_OWNER);
    assertThat(refused(() -> f.machine.rejoin("c", "r2", f.now)).code()).isEqualTo(Code.NOT_OWNER);
    assertThat(refused(() -> f.machine.cancel("b", "r99", f.now)).code())
        .isEqualTo(Code.UNKNOWN_REQUEST);
    assertThat(refused(() -> f.machine.rejoin("b", null, f.now)).code())
        .isEqualTo(Code.UNKNOWN_REQUEST);
    assertThat(f.ticket("r2").state()).isEqualTo(TicketState.OFFERED);

    String permit = f.claim(offer).permitToken();
    assertThat(refused(() -> f.machine.cancel("b", "r2", f.now)).code())
        .as("a held permit is released, not cancelled")
        .isEqualTo(Code.WRONG_STATE);
    assertThat(f.ticket("r2").state()).isEqualTo(TicketState.HELD);
    f.release(permit);
    assertThat(refused(() -> f.machine.rejoin("b", "r2", f.now)).code())
        .isEqualTo(Code.WRONG_STATE);
    assertThat(refused(() -> f.machine.cancel("b", "r2", f.now)).code())
        .isEqualTo(Code.WRONG_STATE);
  }
}
