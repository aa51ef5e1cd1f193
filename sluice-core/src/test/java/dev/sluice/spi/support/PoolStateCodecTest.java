/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.LimiterConfig;
import dev.sluice.TraceEvent;
import dev.sluice.spi.ControlState;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.WaiterRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The binary state row reads back exactly what was written, and refuses damaged bytes. */
class PoolStateCodecTest {
  private static final LimiterConfig CONFIG = LimiterConfig.builder().maxConcurrent(8).build();

  static PoolState sample() {
    PoolState s = PoolState.create(CONFIG, 1_764_800_000_000L, 64);
    s.reservoir(-3);
    s.nextAllowedAt(1_764_800_000_500L);
    s.nextRefreshAt(PoolState.NEVER);
    for (int i = 0; i < 5; i++) {
      s.nextEntryId();
      s.nextFencingToken();
    }
    s.putLease(new LeaseRecord(2, "a1b2c3d4e5f6", 7, 3, 1_764_800_000_100L, PoolState.NEVER, 1));
    s.putLease(new LeaseRecord(4, "ü-owner", 0, 1, 0, Long.MIN_VALUE, Long.MAX_VALUE));
    s.addWaiter(new WaiterRecord(5, "a1b2c3d4e5f6", 9, 2, 1_764_800_000_200L, PoolState.NEVER, -1));
    s.addWaiter(new WaiterRecord(3, "other", 1, 1, 5, 6, 1_000));
    return s;
  }

  @Test
  void aStateReadsBackAsWritten() throws IOException {
    PoolState s = sample();
    StoredPoolState back = PoolStateCodec.read(PoolStateCodec.write(s, 7, List.of()));
    assertThat(back.createdAt()).isEqualTo(s.createdAt());
    assertThat(back.scalars()).isEqualTo(s.scalars());
    assertThat(back.traceCapacity()).isEqualTo(64);
    assertThat(back.lastPulse()).isEqualTo(7);
    assertThat(back.leases()).containsExactlyElementsOf(s.leases());
    assertThat(back.waiters()).containsExactlyElementsOf(s.waiters());
  }

  @Test
  void pendingTraceEntriesReadBack() throws IOException {
    PoolState s = sample();
    s.trace().add(TraceEvent.Kind.ADMITTED, 4, "ü-owner", 4, 1_764_800_000_300L);
    s.trace().add(TraceEvent.Kind.REFRESHED, 0, "", 4, 1_764_800_000_400L);
    s.trace().add(TraceEvent.Kind.RELEASED, 2, "new-owner", 1, 1_764_800_000_500L);
    List<TraceEvent> pending = s.trace().entriesFrom(1);
    StoredPoolState back = PoolStateCodec.read(PoolStateCodec.write(s, 7, pending));
    assertThat(back.pendingTrace()).isEqualTo(pending);
    assertThat(back.leases()).containsExactlyElementsOf(s.leases());
    assertThat(back.waiters()).containsExactlyElementsOf(s.waiters());
  }

  @Test
  void anEmptyStateReadsBack() throws IOException {
    PoolState s = PoolState.create(CONFIG, 0, 0);
    StoredPoolState back = PoolStateCodec.read(PoolStateCodec.write(s, 7, List.of()));
    assertThat(back.scalars()).isEqualTo(s.scalars());
    assertThat(back.leases()).isEmpty();
    assertThat(back.waiters()).isEmpty();
  }

  @Test
  void everyTruncationIsRefused() {
    byte[] bytes = PoolStateCodec.write(sample(), 7, List.of());
    for (int n = 0; n < bytes.length; n++) {
      byte[] cut = Arrays.copyOf(bytes, n);
      assertThatThrownBy(() -> PoolStateCodec.read(cut))
          .as("first %d bytes", n)
          .isInstanceOf(IOException.class)
          .hasMessageContaining("malformed pool state");
    }
  }

  @Test
  void trailingBytesAnotherTagAndJsonTextAreRefused() {
    byte[] bytes = PoolStateCodec.write(sample(), 7, List.of());
    byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
    byte[] otherTag = bytes.clone();
    otherTag[0] = 7;
    byte[] json = "{\"createdAt\":0}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    for (byte[] bad : List.of(longer, otherTag, json)) {
      assertThatThrownBy(() -> PoolStateCodec.read(bad))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("malformed pool state");
    }
  }

  @Test
  void anOwnerIndexOutOfRangeIsRefused() {
    PoolState s = PoolState.create(CONFIG, 0, 0);
    s.putLease(new LeaseRecord(100, "x", 0, 1, 0, PoolState.NEVER, 1));
    byte[] bytes = PoolStateCodec.write(s, 7, List.of());
    // The lease id 100 is the zigzag varint C8 01; the owner index follows it.
    int at = 0;
    while (!(bytes[at] == (byte) 0xC8 && bytes[at + 1] == 1)) {
      at++;
    }
    assertThat(bytes[at + 2]).isEqualTo((byte) 0);
    bytes[at + 2] = 2;
    assertThatThrownBy(() -> PoolStateCodec.read(bytes))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("owner index");
  }

  @Test
  void aDamagedByteIsEitherReadOrRefusedNeverACrash() {
    PoolState s = sample();
    s.trace().add(TraceEvent.Kind.ADMITTED, 4, "x", 4, 1_764_800_000_300L);
    byte[] bytes = PoolStateCodec.write(s, 7, s.trace().entries());
    for (int i = 0; i < bytes.length; i++) {
      for (int v : new int[] {0, 1, 0x7F, 0x80, 0xFF}) {
        byte[] bad = bytes.clone();
        bad[i] = (byte) v;
        try {
          PoolStateCodec.read(bad);
        } catch (IOException expected) {
          assertThat(expected).hasMessageContaining("malformed pool state");
        }
      }
    }
  }

  @Test
  void theControlStateReadsBackAndOnlyThenIsWritten() throws IOException {
    PoolState s = sample();
    byte[] without = PoolStateCodec.write(s, 7, List.of());
    ControlState control =
        new ControlState(
            new ControlState.Cooldown(3, 2, 1_764_800_009_000L, 41),
            new ControlState.Breaker(
                ControlState.BreakerPhase.HALF_OPEN,
                4,
                1,
                1_764_800_010_000L,
                5,
                40,
                new ControlState.Probe(9, 1_764_800_070_000L),
                List.of(
                    new ControlState.Sample(1_764_800_000_100L, 1, 3),
                    new ControlState.Sample(1_764_800_000_200L, 0, 2))),
            new ControlState.Drain(2, true));
    s.control(control);
    byte[] with = PoolStateCodec.write(s, 7, List.of());
    assertThat(PoolStateCodec.read(without).control()).isEqualTo(ControlState.NONE);
    assertThat(PoolStateCodec.read(with).control()).isEqualTo(control);
    // A pool that never used them keeps the minor-0 row, which processes of an older Sluice read.
    assertThat(Arrays.copyOf(with, without.length)).isEqualTo(without);
    assertThat(with.length).isGreaterThan(without.length);
  }

  @Test
  void operationRecordsReadBackInMinorThreeAndARowWithoutThemStaysMinorTwo() throws IOException {
    PoolState s = sample();
    ControlState drained =
        new ControlState(
            ControlState.Cooldown.NONE,
            ControlState.Breaker.CLOSED,
            new ControlState.Drain(4, true));
    s.control(drained);
    byte[] base = PoolStateCodec.write(sample(), 7, List.of());
    byte[] minorTwo = PoolStateCodec.write(s, 7, List.of());
    assertThat(minorTwo[base.length]).as("the minor's zigzag varint").isEqualTo((byte) (2 << 1));
    ControlState withOps =
        drained.withOperations(
            List.of(
                new ControlState.Operation(
                    "op-1", "owner-a", 3, ControlState.OperationStatus.RUNNING, ""),
                new ControlState.Operation(
                    "op-2", "owner-b", 4, ControlState.OperationStatus.UNCONFIRMED, ""),
                new ControlState.Operation(
                    "op-3",
                    "owner-b",
                    4,
                    ControlState.OperationStatus.ACKNOWLEDGED,
                    "idempotent")));
    s.control(withOps);
    byte[] minorThree = PoolStateCodec.write(s, 7, List.of());
    assertThat(minorThree[base.length]).isEqualTo((byte) (3 << 1));
    assertThat(PoolStateCodec.read(minorThree).control()).isEqualTo(withOps);
    assertThat(PoolStateCodec.read(minorTwo).control()).isEqualTo(drained);
    // A minor-3 row whose operation list is cut short is malformed, never a shorter list.
    byte[] cut = Arrays.copyOf(minorThree, minorThree.length - 3);
    assertThatThrownBy(() -> PoolStateCodec.read(cut)).isInstanceOf(IOException.class);
  }

  @Test
  void attemptLeasesAndWaitersReadBackInMinorFourAndOnlyThenIsItWritten() throws IOException {
    PoolState s = sample();
    byte[] base = PoolStateCodec.write(s, 7, List.of());
    s.putLease(new LeaseRecord(6, "owner-a", 11, 1, 10, PoolState.NEVER, 9, true));
    s.addWaiter(new WaiterRecord(8, "owner-a", 12, 1, 20, PoolState.NEVER, -1, true));
    byte[] minorFour = PoolStateCodec.write(s, 7, List.of());
    StoredPoolState back = PoolStateCodec.read(minorFour);
    assertThat(back.leases()).containsExactlyElementsOf(s.leases());
    assertThat(back.waiters()).containsExactlyElementsOf(s.waiters());
    assertThat(back.leases())
        .filteredOn(LeaseRecord::attempt)
        .extracting(LeaseRecord::id)
        .containsExactly(6L);
    assertThat(back.waiters())
        .filteredOn(WaiterRecord::attempt)
        .extracting(WaiterRecord::id)
        .containsExactly(8L);
    assertThat(back.control())
        .as("no control state beside the attempts")
        .isEqualTo(ControlState.NONE);
    // Plain leases and waiters alone keep the minor-0 row older processes read.
    assertThat(base).isEqualTo(PoolStateCodec.write(sample(), 7, List.of()));
    s.removeLease(6);
    s.removeWaiter(8);
    s.putLease(new LeaseRecord(6, "owner-a", 11, 1, 10, PoolState.NEVER, 9));
    assertThat(PoolStateCodec.read(PoolStateCodec.write(s, 7, List.of())).leases())
        .noneMatch(LeaseRecord::attempt);
    // An attempt id that names no lease is damage: the last lease id (6) made 7.
    byte[] damaged = minorFour.clone();
    int at = damaged.length - 3; // the row ends: one lease id, 6; one waiter id, 8
    assertThat(damaged[at]).isEqualTo((byte) (6 << 1));
    damaged[at] = (byte) (7 << 1);
    assertThatThrownBy(() -> PoolStateCodec.read(damaged))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("attempt lease 7 not found");
  }

  @Test
  void aRowRecordingOneOperationTwiceIsRefused() throws IOException {
    PoolState s = sample();
    s.control(
        ControlState.NONE.withOperations(
            List.of(
                new ControlState.Operation(
                    "op-1", "owner-a", 0, ControlState.OperationStatus.RUNNING, ""),
                new ControlState.Operation(
                    "op-2", "owner-a", 0, ControlState.OperationStatus.RUNNING, ""))));
    byte[] row = PoolStateCodec.write(s, 7, List.of());
    assertThat(PoolStateCodec.read(row).control().operations()).hasSize(2);
    // The second id's last character made equal to the first's: the same operation twice.
    byte[] twice = row.clone();
    byte[] second = "op-2".getBytes(StandardCharsets.UTF_8);
    int at = indexOf(twice, second);
    assertThat(at).isPositive();
    twice[at + 3] = (byte) '1';
    assertThatThrownBy(() -> PoolStateCodec.read(twice))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("operation op-1 recorded twice");
  }

  private static int indexOf(byte[] bytes, byte[] part) {
    for (int i = 0; i + part.length <= bytes.length; i++) {
      if (Arrays.equals(Arrays.copyOfRange(bytes, i, i + part.length), part)) {
        return i;
      }
    }
    return -1;
  }

  @Test
  void aRowOfMinorFormatOneReadsWithTheLaterFieldsEmpty() throws IOException {
    byte[] base = PoolStateCodec.write(sample(), 7, List.of());
    // Minor 1 as an older Sluice wrote it: the minor, then ten numbers (zigzag varints): cooldown
    // epoch 3, step 2, until 9; breaker phase OPEN, epoch 4, step 1, open until 20, failures 0;
    // drain generation 5, draining.
    byte[] ext = {2, 6, 4, 18, 2, 8, 2, 40, 0, 10, 2};
    byte[] row = Arrays.copyOf(base, base.length + ext.length);
    System.arraycopy(ext, 0, row, base.length, ext.length);
    ControlState c = PoolStateCodec.read(row).control();
    assertThat(c.cooldown()).isEqualTo(new ControlState.Cooldown(3, 2, 9, 0));
    assertThat(c.breaker())
        .isEqualTo(
            new ControlState.Breaker(
                ControlState.BreakerPhase.OPEN,
                4,
                1,
                20,
                0,
                0,
                ControlState.Probe.NONE,
                List.of()));
    assertThat(c.drain()).isEqualTo(new ControlState.Drain(5, true));
  }

  @Test
  void aRowOfANewerMinorFormatIsRefusedNamingBoth() {
    byte[] base = PoolStateCodec.write(sample(), 7, List.of());
    byte[] newer = Arrays.copyOf(base, base.length + 2);
    newer[base.length] = (byte) ((PoolStateCodec.MINOR + 1) << 1); // the zigzag varint
    newer[base.length + 1] = 0;
    assertThatThrownBy(() -> PoolStateCodec.read(newer))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("minor format 2." + (PoolStateCodec.MINOR + 1))
        .hasMessageContaining("2.0 to 2." + PoolStateCodec.MINOR)
        .hasMessageContaining("a newer Sluice wrote it");
  }
}
