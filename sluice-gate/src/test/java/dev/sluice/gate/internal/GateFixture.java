/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateException;
import dev.sluice.gate.GateSettings;
import dev.sluice.gate.Permit;
import dev.sluice.gate.PoolStatus;
import dev.sluice.gate.ProcessRef;
import dev.sluice.gate.ReleaseOutcome;
import dev.sluice.gate.Ticket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * One gate core on a manual clock with counting tokens ("t1", "t2", ...). Nothing sweeps on its
 * own: {@link #elapse} moves the clock and sweeps, as a store does before each transaction.
 */
final class GateFixture {
  static final long T0 = 1_700_000_000_000L;
  static final long OFFER_TTL = 10_000;
  static final long START_DEADLINE = 20_000;
  static final long LEASE = 30_000;
  static final long RETENTION = 300_000;
  static final String POOL = "build";

  final GateState state;
  final GateMachine machine;
  final Permits permits;
  final GateSweeper sweeper;
  final GateViews views;
  int minted;
  long now = T0;

  /** Distinct timings, so a wrong deadline cannot pass for the right one. */
  static GateSettings.Builder settings(int capacity) {
    return GateSettings.builder()
        .defaultCapacity(capacity)
        .offerTtl(Duration.ofMillis(OFFER_TTL))
        .startDeadline(Duration.ofMillis(START_DEADLINE))
        .untrackedLease(Duration.ofMillis(LEASE))
        .terminalRetention(Duration.ofMillis(RETENTION));
  }

  GateFixture(int capacity) {
    this(settings(capacity).build());
  }

  GateFixture(GateSettings settings) {
    state = new GateState(settings);
    TokenMint mint = () -> "t" + ++minted;
    machine = new GateMachine(state, mint);
    permits = new Permits(state, mint);
    sweeper = new GateSweeper(state);
    views = new GateViews(state, mint);
  }

  static Instant at(long millis) {
    return Instant.ofEpochMilli(millis);
  }

  static AcquireRequest request(String agent, String op, String pool, int weight) {
    return new AcquireRequest(agent, op, pool, weight, "label " + op, "");
  }

  static ProcessRef process(long pid, long startTicks) {
    return new ProcessRef(pid, startTicks, pid, "pid:[4026531836]");
  }

  /** Moves the clock without sweeping. */
  void advance(long millis) {
    now += millis;
  }

  boolean sweep() {
    return sweeper.tick(now);
  }

  /** Moves the clock and sweeps; answers whether the sweep changed anything. */
  boolean elapse(long millis) {
    advance(millis);
    return sweep();
  }

  AcquireOutcome acquire(String agent, String op, int weight) {
    return acquire(agent, op, POOL, weight);
  }

  /**
   * Acquires in {@code pool}, which exists from then on with the default capacity: as if it had
   * been set up, without the history entry and event of a {@code setCapacity}. (PoolRulesTest calls
   * the machine directly.)
   */
  AcquireOutcome acquire(String agent, String op, String pool, int weight) {
    state.pool(pool);
    return machine.acquire(request(agent, op, pool, weight), now);
  }

  /** Acquires on an idle pool and answers the permit token. */
  String grant(String agent, String op, int weight) {
    AcquireOutcome o = acquire(agent, op, weight);
    assertThat(o).isInstanceOf(AcquireOutcome.Granted.class);
    return ((AcquireOutcome.Granted) o).permitToken();
  }

  /** Acquires where the request must wait and answers its id. */
  String queue(String agent, String op, int weight) {
    AcquireOutcome o = acquire(agent, op, weight);
    assertThat(o).isInstanceOf(AcquireOutcome.Queued.class);
    return o.ticket().requestId();
  }

  /** The offer token of an agent's request that is offered now, freshly minted. */
  String offerToken(String agent, String op, int weight) {
    AcquireOutcome o = acquire(agent, op, weight);
    assertThat(o).isInstanceOf(AcquireOutcome.Offered.class);
    return ((AcquireOutcome.Offered) o).offerToken();
  }

  Permit claim(String offerToken) {
    return machine.claim(offerToken, now);
  }

  ReleaseOutcome release(String permitToken) {
    return permits.release(permitToken, "", now);
  }

  Ticket ticket(String requestId) {
    return views.ticket(requestId).orElseThrow();
  }

  PoolStatus pool() {
    return views.status(POOL).orElseThrow();
  }

  List<String> queueIds() {
    return pool().queued().stream().map(Ticket::requestId).toList();
  }

  List<String> offerIds() {
    return pool().offers().stream().map(Ticket::requestId).toList();
  }

  List<GateEvent> events() {
    return state.eventsSince(0);
  }

  List<String> eventTypes(String requestId) {
    return events().stream()
        .filter(e -> e.requestId().equals(requestId))
        .map(GateEvent::type)
        .toList();
  }

  GateEvent lastEvent() {
    List<GateEvent> all = events();
    return all.get(all.size() - 1);
  }

  /** The refusal a call throws; fails if it does not throw one. */
  static GateException refused(ThrowingCallable call) {
    Throwable t = catchThrowable(call);
    assertThat(t).isInstanceOf(GateException.class);
    return (GateException) t;
  }
}
