/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static dev.sluice.gate.internal.GateFixture.process;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateException;
import dev.sluice.gate.Pending;
import dev.sluice.gate.PermitPhase;
import dev.sluice.gate.PoolStatus;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.TicketState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random walks over every verb, sweeping before each one as a store does, checking after each step
 * the rules no single scenario covers: strict FIFO, no admission beyond capacity, a head that fits
 * is never left waiting, and no deadline left overdue.
 */
class InvariantsTest {
  private static final String[] AGENTS = {"a", "b", "c", "d"};
  private static final String[] POOLS = {"build", "test"};

  private final GateFixture f = new GateFixture(4);
  private Random random;
  private int ops;

  private final Map<String, List<String>> queues = new HashMap<>();
  private final Map<String, Set<String>> admitted = new HashMap<>();

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42, 1234})
  void everyTransitionKeepsTheGatesRules(long seed) {
    random = new Random(seed);
    for (String p : POOLS) {
      f.machine.setCapacity(p, 4, "test", "", f.now);
    }
    checkAll();
    for (int step = 0; step < 600; step++) {
      f.advance(random.nextInt(4_000));
      f.sweep();
      checkAll();
      try {
        act(random.nextInt(12));
      } catch (GateException e) {
        assertThat(e.code()).isEqualTo(GateException.Code.WEIGHT_EXCEEDS_CAPACITY);
      }
      checkAll();
    }
    List<GateEvent> events = f.events();
    for (int i = 1; i < events.size(); i++) {
      assertThat(events.get(i).sequence()).isEqualTo(events.get(i - 1).sequence() + 1);
    }
    assertThat(events)
        .extracting(GateEvent::type)
        .contains(
            "granted",
            "queued",
            "offered",
            "claimed",
            "declined",
            "offer_expired",
            "rejoined",
            "cancelled",
            "started",
            "marked_started",
            "released",
            "reclaimed",
            "failed");
  }

  /** Checks every pool against what it was after the previous transition. */
  private void checkAll() {
    for (PoolStatus p : f.views.status()) {
      check(p, queues.getOrDefault(p.name(), List.of()), admitted.getOrDefault(p.name(), Set.of()));
      queues.put(p.name(), ids(p.queued()));
      Set<String> in = new HashSet<>(ids(p.holders()));
      in.addAll(ids(p.offers()));
      admitted.put(p.name(), in);
    }
  }

  private void check(PoolStatus p, List<String> before, Set<String> admittedBefore) {
    int used = 0;
    for (Ticket t : p.holders()) {
      used += t.weight();
      assertThat(t.state()).isEqualTo(TicketState.HELD);
      if (t.phase() == PermitPhase.CLAIMED) {
        assertThat(t.startDeadline().toEpochMilli()).isGreaterThan(f.now);
      } else if (t.phase() == PermitPhase.RUNNING_UNTRACKED) {
        assertThat(t.leaseDeadline().toEpochMilli()).isGreaterThan(f.now);
      }
    }
    for (Ticket t : p.offers()) {
      used += t.weight();
      assertThat(t.offerExpiresAt().toEpochMilli()).isGreaterThan(f.now);
    }
    assertThat(p.used()).isEqualTo(used);
    List<String> now = ids(p.queued());
    for (int i = 0; i < p.queued().size(); i++) {
      assertThat(p.queued().get(i).position()).isEqualTo(i + 1);
    }
    if (!now.isEmpty()) {
      assertThat(p.queued().get(0).weight() + used)
          .as("a head that fits is offered at once")
          .isGreaterThan(p.capacity());
    }
    // Strict FIFO: what left the queue for an offer is a prefix of it (ignoring requests that
    // ended); survivors keep their order and newcomers join at the tail.
    List<String> kept = new ArrayList<>();
    for (String id : before) {
      TicketState s = f.views.ticket(id).map(Ticket::state).orElse(TicketState.CANCELLED);
      if (s == TicketState.OFFERED) {
        assertThat(kept).as("offered %s ahead of %s", id, kept).isEmpty();
      } else if (s == TicketState.QUEUED) {
        kept.add(id);
      }
    }
    assertThat(now.subList(0, Math.min(kept.size(), now.size()))).isEqualTo(kept);
    List<String> admittedNow = new ArrayList<>(ids(p.holders()));
    admittedNow.addAll(ids(p.offers()));
    admittedNow.removeAll(admittedBefore);
    if (!admittedNow.isEmpty()) {
      List<String> jumped = new ArrayList<>(admittedNow);
      jumped.removeAll(before);
      assertThat(jumped.isEmpty() || before.isEmpty())
          .as("%s admitted past the waiting %s", jumped, before)
          .isTrue();
      assertThat(p.used()).as("admission stays within capacity").isLessThanOrEqualTo(p.capacity());
    }
  }

  private void act(int verb) {
    String agent = AGENTS[random.nextInt(AGENTS.length)];
    Pending mine = f.views.pending(agent);
    switch (verb) {
      case 0, 1 -> {
        String pool = POOLS[random.nextInt(POOLS.length)];
        f.acquire(agent, "op" + ops++, pool, 1 + random.nextInt(4));
      }
      case 2, 3 -> pick(mine.offers()).ifPresent(o -> f.claim(o.offerToken()));
      case 4 -> pick(mine.offers()).ifPresent(o -> f.machine.decline(o.offerToken(), f.now));
      case 5 -> pick(mine.held()).ifPresent(g -> f.release(g.permitToken()));
      case 6 ->
          pick(mine.held().stream()
                  .filter(g -> g.ticket().phase() != PermitPhase.RUNNING_TRACKED)
                  .toList())
              .ifPresent(
                  g -> {
                    if (random.nextBoolean()) {
                      f.permits.markStarted(g.permitToken(), f.now);
                    } else {
                      f.permits.start(g.permitToken(), process(100 + ops++, 1), f.now);
                    }
                  });
      case 7 ->
          pick(mine.paused())
              .ifPresent(p -> f.machine.rejoin(agent, p.ticket().requestId(), f.now));
      case 8 -> {
        List<AcquireOutcome> waiting = new ArrayList<>(mine.queued());
        waiting.addAll(mine.paused());
        pick(waiting).ifPresent(w -> f.machine.cancel(agent, w.ticket().requestId(), f.now));
      }
      case 9 -> {
        String pool = POOLS[random.nextInt(POOLS.length)];
        f.machine.setCapacity(pool, 1 + random.nextInt(6), "ops", "", f.now);
      }
      default -> {
        for (AcquireOutcome.Granted g : mine.held()) {
          Ticket t = g.ticket();
          if (t.process() != null && random.nextBoolean()) {
            assertThat(f.permits.processEnded(t.requestId(), t.process(), f.now)).isTrue();
          }
        }
        f.permits.heartbeat(agent, f.now);
      }
    }
  }

  private <T> java.util.Optional<T> pick(List<T> list) {
    return list.isEmpty()
        ? java.util.Optional.empty()
        : java.util.Optional.of(list.get(random.nextInt(list.size())));
  }

  private static List<String> ids(List<Ticket> tickets) {
    return tickets.stream().map(Ticket::requestId).toList();
  }
}
