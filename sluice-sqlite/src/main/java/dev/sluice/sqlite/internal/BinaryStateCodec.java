/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import dev.sluice.TraceEvent;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.WaiterRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The stored form of a pool's state (format {@code sluice-limiter-pool/2}), except its trace: a
 * compact binary row, because every transaction of every process reads or writes it under the gate
 * (the JSON of format 1 cost about a third of a transaction's hold).
 *
 * <p>Layout: a tag byte ({@value #TAG}); the version of the last commit that pulsed (which the next
 * pulse names, see {@link PulseText}); the scalars and the trace capacity; the owner ids, each
 * once; the leases and the waiters, each a count and then rows of an id, an index into the owner
 * ids and five numbers; the trace entries not yet in the trace table (see {@link StateDb}), a count
 * and then rows of a sequence, a kind, a lease id, an owner index, the active weight and a time.
 * Numbers are zigzag varints (1 to 10 bytes), strings a length and UTF-8. Decoding checks every
 * length and count against the bytes left and refuses trailing bytes, so a damaged row is an error,
 * never a wrong state.
 *
 * <p>Thread-safe.
 */
final class BinaryStateCodec {
  /** The first byte of every row of this encoding. */
  static final byte TAG = 2;

  private static final TraceEvent.Kind[] KINDS = TraceEvent.Kind.values();

  private BinaryStateCodec() {}

  static byte[] write(PoolState s, long lastPulse, List<TraceEvent> pendingTrace) {
    Out out = new Out();
    out.buf[out.len++] = TAG;
    out.number(lastPulse);
    PoolState.Scalars sc = s.scalars();
    out.number(s.createdAt());
    out.number(sc.nextAllowedAt());
    out.number(sc.reservoirLimited() ? 1 : 0);
    out.number(sc.reservoir());
    out.number(sc.nextRefreshAt());
    out.number(sc.lastEntryId());
    out.number(sc.lastFencingToken());
    out.number(s.trace().capacity());
    Map<String, Integer> owners = new HashMap<>();
    List<String> ownerList = new ArrayList<>();
    for (LeaseRecord l : s.leases()) {
      index(owners, ownerList, l.owner());
    }
    for (WaiterRecord w : s.waiters()) {
      index(owners, ownerList, w.owner());
    }
    for (TraceEvent e : pendingTrace) {
      index(owners, ownerList, e.owner());
    }
    out.number(ownerList.size());
    for (String o : ownerList) {
      out.string(o);
    }
    out.number(s.leases().size());
    for (LeaseRecord l : s.leases()) {
      out.number(l.id());
      out.number(owners.get(l.owner()));
      out.number(l.ownerRef());
      out.number(l.weight());
      out.number(l.grantedAt());
      out.number(l.expiresAt());
      out.number(l.fencingToken());
    }
    out.number(s.waiters().size());
    for (WaiterRecord w : s.waiters()) {
      out.number(w.id());
      out.number(owners.get(w.owner()));
      out.number(w.ownerRef());
      out.number(w.weight());
      out.number(w.enqueuedAt());
      out.number(w.queueDeadline());
      out.number(w.leaseLifetime());
    }
    out.number(pendingTrace.size());
    for (TraceEvent e : pendingTrace) {
      out.number(e.sequence());
      out.number(e.kind().ordinal());
      out.number(e.leaseId());
      out.number(owners.get(e.owner()));
      out.number(e.activeWeight());
      out.number(e.at().toEpochMilli());
    }
    return Arrays.copyOf(out.buf, out.len);
  }

  private static void index(Map<String, Integer> owners, List<String> list, String owner) {
    if (owners.putIfAbsent(owner, list.size()) == null) {
      list.add(owner);
    }
  }

  /**
   * Reads a row written by {@link #write}.
   *
   * @throws IOException if the bytes are not such a row
   */
  static StoredState read(byte[] bytes) throws IOException {
    In in = new In(bytes);
    if (bytes.length == 0 || bytes[0] != TAG) {
      throw new IOException(
          "malformed pool state: expected tag "
              + TAG
              + ", found "
              + (bytes.length == 0 ? "no bytes" : "tag " + bytes[0]));
    }
    in.pos = 1;
    long lastPulse = in.number();
    long createdAt = in.number();
    long nextAllowedAt = in.number();
    long limited = in.number();
    if (limited != 0 && limited != 1) {
      throw new IOException("malformed pool state: reservoir flag " + limited);
    }
    long reservoir = in.number();
    long nextRefreshAt = in.number();
    long lastEntryId = in.number();
    long lastFencingToken = in.number();
    // Bounded like SqliteStore.withTraceCapacity: a damaged value must not allocate gigabytes.
    int traceCapacity = in.count("trace capacity", 100_000);
    int ownerCount = in.sized("owner count");
    String[] owners = new String[ownerCount];
    for (int i = 0; i < ownerCount; i++) {
      owners[i] = in.string();
    }
    int leaseCount = in.sized("lease count");
    List<LeaseRecord> leases = new ArrayList<>(leaseCount);
    for (int i = 0; i < leaseCount; i++) {
      leases.add(
          new LeaseRecord(
              in.number(),
              owners[in.count("owner index", ownerCount - 1)],
              in.number(),
              in.number(),
              in.number(),
              in.number(),
              in.number()));
    }
    int waiterCount = in.sized("waiter count");
    List<WaiterRecord> waiters = new ArrayList<>(waiterCount);
    for (int i = 0; i < waiterCount; i++) {
      waiters.add(
          new WaiterRecord(
              in.number(),
              owners[in.count("owner index", ownerCount - 1)],
              in.number(),
              in.number(),
              in.number(),
              in.number(),
              in.number()));
    }
    int pendingCount = in.sized("pending trace count");
    List<TraceEvent> pending = new ArrayList<>(pendingCount);
    for (int i = 0; i < pendingCount; i++) {
      pending.add(
          new TraceEvent(
              in.number(),
              KINDS[in.count("trace kind", KINDS.length - 1)],
              in.number(),
              owners[in.count("owner index", ownerCount - 1)],
              in.number(),
              Instant.ofEpochMilli(in.number())));
    }
    if (in.left() != 0) {
      throw new IOException("malformed pool state: " + in.left() + " bytes after the end");
    }
    PoolState.Scalars scalars =
        new PoolState.Scalars(
            nextAllowedAt, limited == 1, reservoir, nextRefreshAt, lastEntryId, lastFencingToken);
    return new StoredState(createdAt, scalars, traceCapacity, leases, waiters, lastPulse, pending);
  }

  /** A growing buffer. */
  private static final class Out {
    byte[] buf = new byte[512];
    int len;

    void number(long v) {
      long z = (v << 1) ^ (v >> 63);
      ensure(10);
      while ((z & ~0x7FL) != 0) {
        buf[len++] = (byte) ((z & 0x7F) | 0x80);
        z >>>= 7;
      }
      buf[len++] = (byte) z;
    }

    void string(String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      number(b.length);
      ensure(b.length);
      System.arraycopy(b, 0, buf, len, b.length);
      len += b.length;
    }

    private void ensure(int more) {
      if (len + more > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
      }
    }
  }

  /** A cursor that refuses to read past the end. */
  private static final class In {
    final byte[] buf;
    int pos;

    In(byte[] buf) {
      this.buf = buf;
    }

    int left() {
      return buf.length - pos;
    }

    long number() throws IOException {
      long z = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= buf.length) {
          throw new IOException("malformed pool state: a number runs past the end");
        }
        byte b = buf[pos++];
        z |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          return (z >>> 1) ^ -(z & 1);
        }
      }
      throw new IOException("malformed pool state: a number longer than 10 bytes");
    }

    /** A number in {@code 0..max}, for counts, lengths and indexes. */
    int count(String what, int max) throws IOException {
      long n = number();
      if (n < 0 || n > max) {
        throw new IOException(
            "malformed pool state: " + what + " " + n + " (allowed 0.." + max + ")");
      }
      return (int) n;
    }

    /** A count or length of things of at least one byte each, so no more than the bytes left. */
    int sized(String what) throws IOException {
      long n = number();
      if (n < 0 || n > left()) {
        throw new IOException(
            "malformed pool state: " + what + " " + n + " but " + left() + " bytes left");
      }
      return (int) n;
    }

    String string() throws IOException {
      int n = sized("string length");
      String s = new String(buf, pos, n, StandardCharsets.UTF_8);
      pos += n;
      return s;
    }
  }
}
