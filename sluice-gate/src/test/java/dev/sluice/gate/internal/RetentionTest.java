/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static dev.sluice.gate.internal.GateFixture.LEASE;
import static dev.sluice.gate.internal.GateFixture.OFFER_TTL;
import static dev.sluice.gate.internal.GateFixture.RETENTION;
import static dev.sluice.gate.internal.GateFixture.START_DEADLINE;
import static dev.sluice.gate.internal.GateFixture.T0;
import static dev.sluice.gate.internal.GateFixture.process;
import static dev.sluice.gate.internal.GateFixture.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateException.Code;
import dev.sluice.gate.TicketState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Pruning of ended requests and events, and the sweep's next deadline. */
class RetentionTest {
  private static final long HOUR = 3_600_000;

  @Test
  void anEndedRequestAnswersForTheRetentionAndIsThenForgotten() {
    GateFixture f = new GateFixture(2);
    String permit = f.grant("a", "op", 1);
    f.advance(1_000);
    f.release(permit);

    assertThat(f.elapse(RETENTION - 1)).isFalse();
    assertThat(f.release(permit).alreadyReleased()).isTrue();
    assertThat(f.views.ticket("r1")).isPresent();

    assertThat(f.elapse(1)).isTrue();
    assertThat(f.views.ticket("r1")).isEmpty();
    assertThat(refused(() -> f.release(permit)).code()).isEqualTo(Code.UNKNOWN_TOKEN);
    assertThat(f.state.tokens).isEmpty();
    assertThat(f.grant("a", "op", 1)).isNotEqualTo(permit);
    assertThat(f.pool().holders()).extracting(t -> t.requestId()).containsExactly("r2");
  }

  @Test
  void cancelledRequestsArePrunedAndLiveOnesNeverAre() {
    GateFixture f = new GateFixture(2);
    f.permits.start(f.grant("x", "op", 2), process(10, 1), f.now);
    String cancelled = f.queue("c", "op", 1);
    String waiting = f.queue("w", "op", 1);
    f.machine.cancel("c", cancelled, f.now);

    f.elapse(RETENTION);
    assertThat(f.views.ticket(cancelled)).isEmpty();
    assertThat(refused(() -> f.machine.cancel("c", cancelled, f.now)).code())
        .isEqualTo(Code.UNKNOWN_REQUEST);

    f.elapse(30L * 24 * HOUR);
    assertThat(f.ticket(waiting).state()).isEqualTo(TicketState.QUEUED);
    assertThat(f.ticket("r1").state()).isEqualTo(TicketState.HELD);
  }

  @Test
  void eventSequencesIncreaseByOneAndCanBeReadSinceAnyOfThem() {
    GateFixture f = new GateFixture(2);
    String permit = f.grant("a", "op", 2);
    f.queue("b", "op", 1);
    f.advance(500);
    f.release(permit);
    f.machine.setCapacity("build", 3, "ops", "", f.now);

    List<GateEvent> all = f.events();
    assertThat(all).extracting(GateEvent::sequence).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(all)
        .extracting(GateEvent::type)
        .containsExactly("granted", "queued", "released", "offered", "capacity_changed");
    assertThat(all.get(2).at()).isAfter(all.get(1).at());
    assertThat(f.state.lastEventSequence()).isEqualTo(5);
    assertThat(f.state.eventsSince(3)).extracting(GateEvent::sequence).containsExactly(4L, 5L);
    assertThat(f.state.eventsSince(5)).isEmpty();
  }

  @Test
  void onlyTheNewestEventsAreKeptAndSequencesAreNotReused() {
    GateFixture f = new GateFixture(GateFixture.settings(2).eventsKept(5).build());
    for (int i = 0; i < 6; i++) {
      f.release(f.grant("a", "op" + i, 1));
    }

    assertThat(f.state.lastEventSequence()).isEqualTo(12);
    assertThat(f.events()).extracting(GateEvent::sequence).containsExactly(8L, 9L, 10L, 11L, 12L);
    assertThat(f.state.eventsSince(2)).hasSize(5);
    f.grant("a", "next", 1);
    assertThat(f.lastEvent().sequence()).isEqualTo(13);
  }

  @Test
  void eventsOlderThanTheirMaxAgeArePrunedByTheSweep() {
    GateFixture f =
        new GateFixture(
            GateFixture.settings(2)
                .eventsMaxAge(Duration.ofMillis(HOUR))
                .terminalRetention(Duration.ofMillis(2 * HOUR))
                .build());
    String permit = f.grant("a", "op", 1);
    f.permits.start(permit, process(10, 1), f.now);
    f.advance(HOUR / 2);
    f.release(permit);

    assertThat(f.sweeper.nextDeadline()).hasValue(T0 + HOUR);
    f.now = T0 + HOUR - 1;
    assertThat(f.sweep()).isFalse();
    f.now = T0 + HOUR;
    assertThat(f.sweep()).isTrue();
    assertThat(f.events()).extracting(GateEvent::type).containsExactly("released");

    assertThat(f.sweeper.nextDeadline()).hasValue(T0 + HOUR / 2 + HOUR);
    f.now = T0 + HOUR / 2 + HOUR;
    assertThat(f.sweep()).isTrue();
    assertThat(f.events()).isEmpty();
    assertThat(f.state.lastEventSequence()).isEqualTo(3);
    assertThat(f.sweeper.nextDeadline()).hasValue(T0 + HOUR / 2 + 2 * HOUR);
  }

  @Test
  void anEmptyGateHasNoDeadlineAndNothingToSweep() {
    GateFixture f = new GateFixture(2);

    assertThat(f.sweeper.nextDeadline()).isEmpty();
    assertThat(f.elapse(365L * 24 * HOUR)).isFalse();
  }

  /** The sweep changes nothing before each deadline it announces, and something at it. */
  @Test
  void theNextDeadlineIsExactlyWhenTheSweepHasSomethingToDo() {
    GateFixture f = new GateFixture(3);
    f.grant("a", "op", 1);
    f.permits.markStarted(f.grant("b", "op", 1), f.now);
    String tracked = f.grant("x", "op", 1);
    f.permits.start(tracked, process(10, 1), f.now);
    String c = f.queue("c", "op", 1);
    f.release(tracked);
    assertThat(f.ticket(c).state()).isEqualTo(TicketState.OFFERED);

    List<Long> deadlines = new ArrayList<>();
    for (OptionalLong next = f.sweeper.nextDeadline();
        next.isPresent();
        next = f.sweeper.nextDeadline()) {
      long due = next.getAsLong();
      assertThat(due).isGreaterThan(f.now);
      assertThat(deadlines).hasSizeLessThan(50);
      deadlines.add(due);
      f.now = due - 1;
      var status = f.views.status();
      var events = f.events();
      assertThat(f.sweep()).isFalse();
      assertThat(f.views.status()).isEqualTo(status);
      assertThat(f.events()).isEqualTo(events);
      f.now = due;
      assertThat(f.sweep()).isTrue();
    }

    assertThat(deadlines)
        .startsWith(
            T0 + OFFER_TTL,
            T0 + START_DEADLINE,
            T0 + LEASE,
            T0 + RETENTION,
            T0 + START_DEADLINE + RETENTION,
            T0 + LEASE + RETENTION)
        .isSorted();
    assertThat(f.ticket(c).state()).as("paused waits for its agent").isEqualTo(TicketState.PAUSED);
    assertThat(f.events()).isEmpty();
    assertThat(f.pool().used()).isZero();
  }
}
