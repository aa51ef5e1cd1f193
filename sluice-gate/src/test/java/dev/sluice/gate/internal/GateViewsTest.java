/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static dev.sluice.gate.internal.GateFixture.OFFER_TTL;
import static dev.sluice.gate.internal.GateFixture.T0;
import static dev.sluice.gate.internal.GateFixture.at;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.Pending;
import dev.sluice.gate.PoolStatus;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.TicketState;
import org.junit.jupiter.api.Test;

/** Status, pending and single-ticket views. */
class GateViewsTest {
  private final GateFixture f = new GateFixture(3);

  @Test
  void statusShowsEveryPoolByNameWithItsHoldersOffersQueueAndPaused() {
    f.acquire("z", "op", "zeta", 1);
    String held = f.grant("a", "op", 2);
    f.queue("b", "op", 2);
    f.queue("c", "op", 1);
    f.queue("d", "op", 3);
    f.release(held);
    // b and c are offered (3 of 3 used); d waits. c's offer lapses and pauses.
    f.claim(f.offerToken("b", "op", 2));
    f.elapse(OFFER_TTL);

    assertThat(f.views.status()).extracting(PoolStatus::name).containsExactly("build", "zeta");
    PoolStatus build = f.pool();
    assertThat(build.capacity()).isEqualTo(3);
    assertThat(build.used()).isEqualTo(2);
    assertThat(build.holders()).extracting(Ticket::requestId).containsExactly("r3");
    assertThat(build.offers()).isEmpty();
    assertThat(build.paused()).extracting(Ticket::requestId).containsExactly("r4");
    assertThat(build.queued()).extracting(Ticket::requestId).containsExactly("r5");
    assertThat(f.views.status("nope")).isEmpty();
  }

  @Test
  void positionsAreOneBasedWhileQueuedAndZeroOtherwise() {
    String held = f.grant("a", "op", 3);
    String b = f.queue("b", "op", 2);
    String c = f.queue("c", "op", 2);
    String d = f.queue("d", "op", 1);

    assertThat(f.pool().queued()).extracting(Ticket::position).containsExactly(1, 2, 3);
    assertThat(f.ticket(d).position()).isEqualTo(3);
    assertThat(f.ticket("r1").position()).isZero();

    f.release(held);
    assertThat(f.ticket(b).state()).isEqualTo(TicketState.OFFERED);
    assertThat(f.ticket(b).position()).isZero();
    assertThat(f.ticket(c).position()).isEqualTo(1);
    assertThat(f.ticket(d).position()).isEqualTo(2);
  }

  @Test
  void aTicketIsFoundByIdUntilItIsPruned() {
    f.grant("a", "op", 1);

    Ticket t = f.ticket("r1");
    assertThat(t.agentId()).isEqualTo("a");
    assertThat(t.opKey()).isEqualTo("op");
    assertThat(t.weight()).isEqualTo(1);
    assertThat(t.createdAt()).isEqualTo(at(T0));
    assertThat(f.views.ticket("r2")).isEmpty();
    assertThat(f.views.ticket(null)).isEmpty();
  }

  @Test
  void pendingListsAnAgentsLiveRequestsWithFreshWorkingTokens() {
    f.release(f.grant("a", "ended", 1));
    String held = f.grant("a", "held", 1);
    f.grant("x", "op", 2);
    f.queue("a", "queued", 3);
    int before = f.minted;

    Pending p = f.views.pending("a");

    assertThat(p.held())
        .singleElement()
        .satisfies(
            g -> {
              assertThat(g.ticket().requestId()).isEqualTo("r2");
              assertThat(g.permitToken()).isNotEqualTo(held);
            });
    assertThat(p.queued()).extracting(q -> q.ticket().requestId()).containsExactly("r4");
    assertThat(p.offers()).isEmpty();
    assertThat(p.paused()).isEmpty();
    assertThat(f.minted).as("one token per offer or permit").isEqualTo(before + 1);
    assertThat(f.permits.markStarted(p.held().get(0).permitToken(), f.now).state())
        .isEqualTo(TicketState.HELD);
    // Earlier tokens of the same permit keep working.
    assertThat(f.release(held).alreadyReleased()).isFalse();
    assertThat(f.views.pending("nobody").isEmpty()).isTrue();
  }

  @Test
  void pendingRevealsAFreshOfferTokenAndPausedRequests() {
    String blocker = f.grant("x", "op", 3);
    f.queue("a", "first", 2);
    f.queue("a", "second", 1);
    f.release(blocker);
    String viaAcquire = f.offerToken("a", "first", 2);

    Pending p = f.views.pending("a");
    assertThat(p.offers()).hasSize(2);
    AcquireOutcome.Offered first = p.offers().get(0);
    assertThat(first.ticket().requestId()).isEqualTo("r2");
    assertThat(first.offerToken()).isNotEqualTo(viaAcquire);
    assertThat(f.claim(first.offerToken()).ticket().state()).isEqualTo(TicketState.HELD);

    f.elapse(OFFER_TTL);
    Pending later = f.views.pending("a");
    assertThat(later.paused()).extracting(q -> q.ticket().requestId()).containsExactly("r3");
    assertThat(later.held()).extracting(g -> g.ticket().requestId()).containsExactly("r2");
    assertThat(later.isEmpty()).isFalse();
  }
}
