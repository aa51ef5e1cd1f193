/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LimiterConfig;
import dev.sluice.TraceEvent;
import dev.sluice.spi.ControlState;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.WaiterRecord;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * A copy brought up to date in place equals the state another process wrote, whatever that process
 * did in between; when it cannot be (the queue's order would differ), the refresh says so.
 */
class PoolStateRefreshTest {
  private static final LimiterConfig CONFIG = LimiterConfig.builder().maxConcurrent(100).build();

  @RepeatedTest(20)
  void aRefreshedCopyEqualsTheWrittenState(org.junit.jupiter.api.RepetitionInfo info)
      throws IOException {
    Random random = new Random(info.getCurrentRepetition());
    PoolState writer = PoolState.create(CONFIG, 1_000, 16);
    PoolState copy = decode(writer, List.of());
    for (int round = 0; round < 30; round++) {
      long traceFrom = writer.trace().nextSequence();
      for (int step = random.nextInt(6); step > 0; step--) {
        mutate(writer, random);
      }
      writer.markClean();
      List<TraceEvent> newer = writer.trace().entriesFrom(traceFrom);
      StoredPoolState stored = PoolStateCodec.read(PoolStateCodec.write(writer, 7, List.of()));
      assertThat(PoolStateRefresh.apply(copy, stored, newer)).isTrue();
      assertSame(copy, writer);
    }
  }

  @Test
  void aRefreshCarriesTheControlStateAndLeavesTheCopyClean() throws IOException {
    PoolState writer = PoolState.create(CONFIG, 0, 0);
    PoolState copy = decode(writer, List.of());
    ControlState draining =
        new ControlState(
            new ControlState.Cooldown(1, 1, 500, 0),
            ControlState.Breaker.CLOSED,
            new ControlState.Drain(3, true));
    writer.control(draining);
    StoredPoolState stored = PoolStateCodec.read(PoolStateCodec.write(writer, 7, List.of()));
    assertThat(PoolStateRefresh.apply(copy, stored, List.of())).isTrue();
    assertThat(copy.control()).isEqualTo(draining);
    assertThat(copy.isDirty()).isFalse();
  }

  @Test
  void aQueueWhoseOrderWouldDifferIsNotPatched() throws IOException {
    PoolState writer = PoolState.create(CONFIG, 0, 0);
    writer.addWaiter(new WaiterRecord(1, "a", 1, 1, 0, PoolState.NEVER, -1));
    writer.addWaiter(new WaiterRecord(2, "b", 1, 1, 0, PoolState.NEVER, -1));
    PoolState copy = decode(writer, List.of());
    // Stored with 2 ahead of 1, which no transition does, but the copy must never guess.
    PoolState reordered = PoolState.create(CONFIG, 0, 0);
    reordered.addWaiter(writer.waiter(2));
    reordered.addWaiter(writer.waiter(1));
    StoredPoolState stored = PoolStateCodec.read(PoolStateCodec.write(reordered, 7, List.of()));
    assertThat(PoolStateRefresh.apply(copy, stored, List.of())).isFalse();
  }

  @Test
  void aTraceWithAGapIsNotPatched() throws IOException {
    PoolState writer = PoolState.create(CONFIG, 0, 8);
    PoolState copy = decode(writer, List.of());
    writer.trace().add(TraceEvent.Kind.RELEASED, 1, "a", 0, 5);
    writer.trace().add(TraceEvent.Kind.RELEASED, 2, "a", 0, 6);
    StoredPoolState stored = PoolStateCodec.read(PoolStateCodec.write(writer, 7, List.of()));
    List<TraceEvent> onlyTheSecond = writer.trace().entriesFrom(1);
    assertThat(PoolStateRefresh.apply(copy, stored, onlyTheSecond)).isFalse();
  }

  @Test
  void aRebuiltStateKeepsTheTraceSequences() throws IOException {
    PoolState writer = PoolState.create(CONFIG, 0, 3);
    for (int i = 0; i < 7; i++) {
      writer.trace().add(TraceEvent.Kind.RELEASED, i, "a", 0, i);
    }
    PoolState rebuilt = decode(writer, writer.trace().entries());
    assertThat(rebuilt.trace().nextSequence()).isEqualTo(7);
    assertThat(rebuilt.trace().entries()).isEqualTo(writer.trace().entries());
    assertThat(rebuilt.trace().entries())
        .extracting(TraceEvent::sequence)
        .containsExactly(4L, 5L, 6L);
  }

  private static PoolState decode(PoolState s, List<TraceEvent> trace) throws IOException {
    return PoolStateCodec.read(PoolStateCodec.write(s, 7, List.of())).restore(CONFIG, trace);
  }

  private static void mutate(PoolState s, Random random) {
    long now = 1_000 + random.nextInt(10_000);
    switch (random.nextInt(7)) {
      case 0 -> {
        long id = s.nextEntryId();
        s.putLease(
            new LeaseRecord(
                id,
                "o" + random.nextInt(4),
                random.nextInt(50),
                1 + random.nextInt(3),
                now,
                random.nextBoolean() ? PoolState.NEVER : now + 500,
                s.nextFencingToken()));
        s.trace().add(TraceEvent.Kind.values()[0], id, "o", s.activeWeight(), now);
      }
      case 1 -> {
        if (!s.leases().isEmpty()) {
          LeaseRecord l = List.copyOf(s.leases()).get(random.nextInt(s.leases().size()));
          s.removeLease(l.id());
          s.trace().add(TraceEvent.Kind.RELEASED, l.id(), l.owner(), s.activeWeight(), now);
        }
      }
      case 2 ->
          s.addWaiter(
              new WaiterRecord(
                  s.nextEntryId(),
                  "o" + random.nextInt(4),
                  random.nextInt(50),
                  1,
                  now,
                  now + 9,
                  -1));
      case 3 -> {
        if (s.hasWaiters()) {
          List<WaiterRecord> ws = List.copyOf(s.waiters());
          s.removeWaiter(ws.get(random.nextInt(ws.size())).id());
        }
      }
      case 4 -> s.nextAllowedAt(now);
      case 5 -> s.reservoir(random.nextInt(10) - 2);
      default -> s.nextRefreshAt(random.nextBoolean() ? PoolState.NEVER : now);
    }
  }

  private static void assertSame(PoolState copy, PoolState writer) {
    assertThat(copy.isDirty()).isFalse();
    assertThat(copy.scalars()).isEqualTo(writer.scalars());
    assertThat(copy.leases()).containsExactlyElementsOf(writer.leases());
    assertThat(copy.waiters()).containsExactlyElementsOf(writer.waiters());
    assertThat(copy.activeWeight()).isEqualTo(writer.activeWeight());
    assertThat(copy.trace().nextSequence()).isEqualTo(writer.trace().nextSequence());
    assertThat(copy.trace().entries()).isEqualTo(writer.trace().entries());
  }
}
