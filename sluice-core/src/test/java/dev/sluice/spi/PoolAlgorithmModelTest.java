/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LimiterConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Random command sequences through {@link PoolAlgorithm}, checked after every command against a
 * model built only from the outcomes: the leases and queue the outcomes imply are exactly the
 * state's, and the cap, the reservoir, spacing, FIFO order of queued grants and strictly rising
 * fencing tokens hold throughout; every unit comes back once everyone retires.
 */
class PoolAlgorithmModelTest {
  private static final int RUNS = 400;
  private static final int STEPS = 250;

  @Test
  void randomCommandSequencesKeepEveryInvariant() {
    for (long seed = 1; seed <= RUNS; seed++) {
      new Run(seed).go();
    }
  }

  /** One random pool and command sequence; the model and the checks. */
  private static final class Run {
    private final long seed;
    private final Random rnd;
    private final LimiterConfig config;
    private final PoolState state;
    private final Map<Long, LeaseRecord> leases = new LinkedHashMap<>();
    private final Map<Long, WaiterRecord> queue = new LinkedHashMap<>();
    private final List<String> owners = new ArrayList<>(List.of("a", "b", "c"));
    private long now = 1_000_000;
    private long nextRef = 1;
    private long lastFencing = 0;
    private long lastQueuedGrant = 0;
    private long lastGrantAt = Long.MIN_VALUE;
    private long sequence;
    private int ownerGeneration;
    private final ControlInvariants control = new ControlInvariants();

    Run(long seed) {
      this.seed = seed;
      this.rnd = new Random(seed);
      this.config = randomConfig();
      this.state = PoolState.create(config, now, 32);
    }

    private LimiterConfig randomConfig() {
      LimiterConfig.Builder b = LimiterConfig.builder();
      if (rnd.nextInt(4) > 0) {
        b.maxConcurrent(1 + rnd.nextInt(4));
      }
      if (rnd.nextBoolean()) {
        b.minTime(Duration.ofMillis(1 + rnd.nextInt(10)));
      }
      if (rnd.nextBoolean()) {
        b.reservoir(rnd.nextInt(12));
        if (rnd.nextBoolean()) {
          b.reservoirRefresh(1 + rnd.nextInt(8), Duration.ofMillis(50 + rnd.nextInt(200)));
        }
      }
      if (rnd.nextInt(3) == 0) {
        // Short pauses, so a run sees cooldowns, openings and probes come and go.
        dev.sluice.RecoveryPolicy.Builder r =
            dev.sluice.RecoveryPolicy.builder()
                .cooldown(Duration.ofMillis(1 + rnd.nextInt(20)), 2, Duration.ofMillis(60));
        if (rnd.nextBoolean()) {
          r.breaker(
              dev.sluice.BreakerPolicy.consecutive()
                  .failureThreshold(1 + rnd.nextInt(3))
                  .initialPause(Duration.ofMillis(10 + rnd.nextInt(40)))
                  .maxPause(Duration.ofMillis(100))
                  .probeTimeout(Duration.ofMillis(5 + rnd.nextInt(60)))
                  .build());
        }
        b.recovery(r.build());
      }
      return b.build();
    }

    void go() {
      for (int i = 0; i < STEPS; i++) {
        now += rnd.nextInt(4) == 0 ? rnd.nextInt(80) : rnd.nextInt(3);
        step();
      }
      for (String o : List.copyOf(owners)) {
        apply(new PoolCommand.Retire(o), Set.of());
      }
      assertThat(state.leases()).as(seed + ": leases after every owner retired").isEmpty();
      assertThat(state.waiters()).as(seed + ": queue after every owner retired").isEmpty();
      assertThat(state.activeWeight()).as(seed + ": every unit came back").isZero();
    }

    private void step() {
      String owner = owners.get(rnd.nextInt(owners.size()));
      int pick = rnd.nextInt(100);
      if (pick < 40) {
        long cap = config.maxConcurrentRaw();
        long weight = 1 + rnd.nextInt(cap > 0 ? (int) Math.min(cap, 3) : 3);
        long lifetime = rnd.nextBoolean() ? -1 : 5 + rnd.nextInt(150);
        long wait = new long[] {-1, 0, 30, 200}[rnd.nextInt(4)];
        boolean failFast = rnd.nextInt(4) == 0;
        boolean continuing = rnd.nextBoolean();
        apply(
            new PoolCommand.Acquire(owner, nextRef++, weight, lifetime, wait, failFast, continuing),
            Set.of());
      } else if (pick < 55) {
        LeaseRecord l = any(leases.values(), owner);
        ReportedOutcome outcome = ReportedOutcome.values()[rnd.nextInt(4)];
        long retryAfter =
            outcome != ReportedOutcome.SUCCESS && rnd.nextInt(4) == 0 ? rnd.nextInt(100) : 0;
        apply(
            new PoolCommand.Report(owner, l == null ? 999_999 : l.id(), outcome, retryAfter),
            Set.of());
      } else if (pick < 57) {
        apply(new PoolCommand.Drain(owner), Set.of());
      } else if (pick < 59) {
        apply(new PoolCommand.Resume(owner, 1 + rnd.nextInt(3)), Set.of());
      } else if (pick < 65) {
        LeaseRecord l = any(leases.values(), owner);
        apply(new PoolCommand.Release(owner, l == null ? 999_999 : l.id()), Set.of());
      } else if (pick < 75) {
        apply(new PoolCommand.Withdraw(owner, randomRefs(owner)), Set.of());
      } else if (pick < 85) {
        List<PoolCommand.Sync.Pending> pending = new ArrayList<>();
        for (WaiterRecord w : queue.values()) {
          if (w.owner().equals(owner)) {
            pending.add(new PoolCommand.Sync.Pending(w.ownerRef(), w.id(), w.queueDeadline()));
          }
        }
        apply(new PoolCommand.Sync(owner, pending), Set.of());
      } else if (pick < 90 && (config.reservoirRaw() >= 0 || config.refreshAmountRaw() >= 0)) {
        apply(new PoolCommand.IncrementReservoir(owner, rnd.nextInt(4)), Set.of());
      } else if (pick < 93) {
        // The owner dies; a new one takes its place.
        owners.remove(owner);
        owners.add("o" + ++ownerGeneration);
        apply(new PoolCommand.Tick(owners.get(0)), Set.of(owner));
      } else if (pick < 95) {
        apply(new PoolCommand.Retire(owner), Set.of());
      } else {
        apply(new PoolCommand.Tick(owner), Set.of());
      }
    }

    private Set<Long> randomRefs(String owner) {
      Set<Long> refs = new HashSet<>();
      for (WaiterRecord w : queue.values()) {
        if (w.owner().equals(owner) && rnd.nextBoolean()) {
          refs.add(w.ownerRef());
        }
      }
      LeaseRecord l = any(leases.values(), owner);
      if (l != null && rnd.nextBoolean()) {
        refs.add(l.ownerRef());
      }
      return refs;
    }

    private LeaseRecord any(java.util.Collection<LeaseRecord> all, String owner) {
      List<LeaseRecord> mine = new ArrayList<>();
      for (LeaseRecord l : all) {
        if (l.owner().equals(owner)) {
          mine.add(l);
        }
      }
      return mine.isEmpty() ? null : mine.get(rnd.nextInt(mine.size()));
    }

    private void apply(PoolCommand<?> command, Set<String> dead) {
      boolean limitedBefore = state.reservoirLimited();
      control.before(state, now);
      PoolOutcome<?> o =
          PoolAlgorithm.apply(state, command, new PoolContext(now, dead, ++sequence));
      String at = seed + " at " + command + ": ";
      control.after(at, state, command, o);
      assertThat(o.sequence()).isEqualTo(sequence);
      forgetSettled(dead);
      if (command instanceof PoolCommand.Withdraw) {
        // A withdrawn grant gives its spacing slot back: the next one may follow it at once.
        lastGrantAt = Long.MIN_VALUE;
      }
      for (LeaseRecord g : o.grants()) {
        if (!leases.containsKey(g.id())) {
          assertThat(queue.remove(g.id())).as(at + "a granted waiter was queued").isNotNull();
          assertThat(g.id())
              .as(at + "FIFO: queued grants in arrival order")
              .isGreaterThan(lastQueuedGrant);
          lastQueuedGrant = g.id();
          granted(at, g);
        }
      }
      for (EndedRequest e : o.ended()) {
        queue.remove(e.entryId());
        assertThat(e.owner()).isNotNull();
      }
      afterCommand(at, command, o);
      if (limitedBefore && !(command instanceof PoolCommand.IncrementReservoir)) {
        assertThat(state.reservoir()).as(at + "the reservoir never goes negative").isNotNegative();
      }
      assertThat(state.leases())
          .extracting(LeaseRecord::id)
          .as(at + "leases")
          .containsExactlyElementsOf(leases.keySet());
      assertThat(state.waiters())
          .extracting(WaiterRecord::id)
          .as(at + "queue")
          .containsExactlyElementsOf(queue.keySet());
      long held = leases.values().stream().mapToLong(LeaseRecord::weight).sum();
      assertThat(state.activeWeight()).as(at + "held weight").isEqualTo(held);
      if (config.maxConcurrentRaw() >= 0) {
        assertThat(held).as(at + "the cap").isLessThanOrEqualTo(config.maxConcurrentRaw());
      }
      assertThat(o.concernedOwners())
          .as(at + "the issuer is never concerned")
          .doesNotContain(command.owner());
      if (o.deadlineMoved() || o.nextDeadline() != PoolState.NEVER) {
        assertThat(o.nextDeadline()).as(at + "a deadline lies ahead").isGreaterThan(now);
      }
    }

    /** What settling removes without reporting it as a grant: expiries and dead owners. */
    private void forgetSettled(Set<String> dead) {
      leases.values().removeIf(l -> l.expiresAt() <= now || dead.contains(l.owner()));
      queue.values().removeIf(w -> dead.contains(w.owner()) || w.queueDeadline() <= now);
    }

    private void afterCommand(String at, PoolCommand<?> command, PoolOutcome<?> o) {
      if (command instanceof PoolCommand.Acquire a) {
        AcquireAnswer answer = (AcquireAnswer) o.value();
        if (answer instanceof AcquireAnswer.Granted g) {
          // Admitted at once only past an empty queue (the command first granted what fit).
          assertThat(queue).as(at + "nobody is overtaken").isEmpty();
          granted(at, g.lease());
        } else if (answer instanceof AcquireAnswer.Queued q) {
          WaiterRecord w = state.waiter(q.entryId());
          assertThat(w).as(at + "the queued entry").isNotNull();
          queue.put(q.entryId(), w);
        }
      } else if (command instanceof PoolCommand.Release r) {
        LeaseRecord l = leases.get(r.leaseId());
        boolean mine = l != null && l.owner().equals(r.owner());
        assertThat(o.value()).as(at + "released").isEqualTo(mine);
        if (mine) {
          leases.remove(r.leaseId());
        }
      } else if (command instanceof PoolCommand.Report r) {
        LeaseRecord l = leases.get(r.leaseId());
        boolean mine = l != null && l.owner().equals(r.owner());
        assertThat(((ReportAnswer) o.value()).released()).as(at + "reported").isEqualTo(mine);
        if (mine) {
          leases.remove(r.leaseId());
        }
      } else if (command instanceof PoolCommand.Withdraw w) {
        leases
            .values()
            .removeIf(l -> l.owner().equals(w.owner()) && w.ownerRefs().contains(l.ownerRef()));
        queue
            .values()
            .removeIf(q -> q.owner().equals(w.owner()) && w.ownerRefs().contains(q.ownerRef()));
      } else if (command instanceof PoolCommand.Retire r) {
        leases.values().removeIf(l -> l.owner().equals(r.owner()));
        queue.values().removeIf(q -> q.owner().equals(r.owner()));
      }
    }

    private void granted(String at, LeaseRecord l) {
      assertThat(l.fencingToken()).as(at + "fencing tokens rise").isGreaterThan(lastFencing);
      lastFencing = l.fencingToken();
      long minTime = config.minTimeMillis();
      if (minTime > 0 && lastGrantAt != Long.MIN_VALUE) {
        assertThat(l.grantedAt() - lastGrantAt).as(at + "spacing").isGreaterThanOrEqualTo(minTime);
      }
      lastGrantAt = l.grantedAt();
      leases.put(l.id(), l);
    }
  }
}
