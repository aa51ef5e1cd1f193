/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi.support;

import dev.sluice.TraceEvent;
import dev.sluice.spi.ControlState;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.WaiterRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;
import java.util.function.UnaryOperator;

/**
 * The compact binary form of a pool's state, except its trace, that any store may keep in one row
 * or value: every transaction of every process reads or writes it under the pool's lock, so it must
 * be small and quick to decode.
 *
 * <p>Layout: a tag byte ({@value #TAG}); a number the store keeps with the row (the SQLite store:
 * the version of the last commit that pulsed); the scalars and the trace capacity; the owner ids,
 * each once; the leases and the waiters, each a count and then rows of an id, an index into the
 * owner ids and five numbers; the trace entries the store keeps in the row until it moves them
 * elsewhere, a count and then rows of a sequence, a kind, a lease id, an owner index, the active
 * weight and a time. Numbers are zigzag varints (1 to 10 bytes), strings a length and UTF-8.
 * Decoding checks every length and count against the bytes left, so a damaged row is an error,
 * never a wrong state.
 *
 * <p><b>Fields added later.</b> After the trace entries a row may carry an extension: its minor
 * format (a number from 1) and then the fields of every minor format up to it, in order (minor 1:
 * the {@link ControlState} as first defined; minor 2: the cooldown's and breaker's fences, the
 * probe and the percentage rule's samples, which a row of minor 1 reads as empty; minor 3: the
 * operation records, which older rows read as none; minor 4: the ids of the leases and then of the
 * waiters that are attempts of managed executions, each a count and the ids, which older rows read
 * as none). A row without an extension is minor 0. A reader refuses a row whose minor format is
 * newer than {@link #MINOR} with a message naming both, rather than skip fields it does not know;
 * and a writer adds the extension only when the state holds something minor 0 cannot say, so
 * processes of an older Sluice keep sharing a pool until a newer feature is used.
 *
 * <p>Thread-safe (stateless).
 */
public final class PoolStateCodec {
  /** The first byte of every row of this encoding. */
  public static final byte TAG = 2;

  /** The newest minor format this Sluice reads and writes. */
  public static final int MINOR = 4;

  private static final TraceEvent.Kind[] KINDS = TraceEvent.Kind.values();
  private static final ControlState.BreakerPhase[] PHASES = ControlState.BreakerPhase.values();
  private static final ControlState.OperationStatus[] STATUSES =
      ControlState.OperationStatus.values();

  private PoolStateCodec() {}

  /**
   * Encodes {@code s}.
   *
   * @param s the state
   * @param lastPulse the number the store keeps with the row
   * @param pendingTrace trace entries kept in the row, oldest first
   * @return the row
   */
  public static byte[] write(PoolState s, long lastPulse, List<TraceEvent> pendingTrace) {
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
    List<Long> attemptLeases = new ArrayList<>();
    for (LeaseRecord l : s.leases()) {
      if (l.attempt()) {
        attemptLeases.add(l.id());
      }
    }
    List<Long> attemptWaiters = new ArrayList<>();
    for (WaiterRecord w : s.waiters()) {
      if (w.attempt()) {
        attemptWaiters.add(w.id());
      }
    }
    boolean attempts = !attemptLeases.isEmpty() || !attemptWaiters.isEmpty();
    if (!s.control().isNone() || attempts) {
      // The oldest minor that can say it, so older processes keep reading rows without records.
      int minor = attempts ? 4 : s.control().operations().isEmpty() ? 2 : 3;
      out.number(minor);
      writeControl(out, s.control(), minor);
      if (minor >= 4) {
        writeIds(out, attemptLeases);
        writeIds(out, attemptWaiters);
      }
    }
    return Arrays.copyOf(out.buf, out.len);
  }

  private static void writeIds(Out out, List<Long> ids) {
    out.number(ids.size());
    for (long id : ids) {
      out.number(id);
    }
  }

  private static void index(Map<String, Integer> owners, List<String> list, String owner) {
    if (owners.putIfAbsent(owner, list.size()) == null) {
      list.add(owner);
    }
  }

  private static void writeControl(Out out, ControlState c, int minor) {
    out.number(c.cooldown().epoch());
    out.number(c.cooldown().step());
    out.number(c.cooldown().until());
    out.number(c.breaker().phase().ordinal());
    out.number(c.breaker().epoch());
    out.number(c.breaker().step());
    out.number(c.breaker().openUntil());
    out.number(c.breaker().consecutiveFailures());
    out.number(c.drain().generation());
    out.number(c.drain().draining() ? 1 : 0);
    // Minor 2.
    out.number(c.cooldown().fence());
    out.number(c.breaker().fence());
    out.number(c.breaker().probe().leaseId());
    out.number(c.breaker().probe().expiresAt());
    out.number(c.breaker().samples().size());
    for (ControlState.Sample sample : c.breaker().samples()) {
      out.number(sample.at());
      out.number(sample.failures());
      out.number(sample.total());
    }
    if (minor >= 3) {
      out.number(c.operations().size());
      for (ControlState.Operation o : c.operations()) {
        out.string(o.id());
        out.string(o.owner());
        out.number(o.generation());
        out.number(o.status().ordinal());
        out.string(o.reason());
      }
    }
  }

  private static ControlState readControl(In in, long minor) throws IOException {
    long epoch = in.number();
    int step = in.count("cooldown step", 64);
    long until = in.number();
    ControlState.BreakerPhase phase = PHASES[in.count("breaker phase", PHASES.length - 1)];
    long breakerEpoch = in.number();
    int breakerStep = in.count("breaker step", 64);
    long openUntil = in.number();
    int failures = in.count("consecutive failures", Integer.MAX_VALUE);
    long generation = in.number();
    ControlState.Drain drain = new ControlState.Drain(generation, in.count("drain flag", 1) == 1);
    long cooldownFence = 0;
    long breakerFence = 0;
    ControlState.Probe probe = ControlState.Probe.NONE;
    List<ControlState.Sample> samples = List.of();
    if (minor >= 2) {
      cooldownFence = in.number();
      breakerFence = in.number();
      probe = new ControlState.Probe(in.number(), in.number());
      int count = in.sized("sample count");
      samples = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        samples.add(
            new ControlState.Sample(
                in.number(),
                in.count("sample failures", Integer.MAX_VALUE),
                in.count("sample total", Integer.MAX_VALUE)));
      }
    }
    List<ControlState.Operation> operations = List.of();
    if (minor >= 3) {
      int count = in.sized("operation count");
      operations = new ArrayList<>(count);
      Set<String> ids = new HashSet<>();
      for (int i = 0; i < count; i++) {
        ControlState.Operation o =
            new ControlState.Operation(
                in.string(),
                in.string(),
                in.number(),
                STATUSES[in.count("operation status", STATUSES.length - 1)],
                in.string());
        // The pool keeps one record per operation id; a second one is damage, not a record.
        if (!ids.add(o.id())) {
          throw new IOException("malformed pool state: operation " + o.id() + " recorded twice");
        }
        operations.add(o);
      }
    }
    return new ControlState(
        new ControlState.Cooldown(epoch, step, until, cooldownFence),
        new ControlState.Breaker(
            phase, breakerEpoch, breakerStep, openUntil, failures, breakerFence, probe, samples),
        drain,
        operations);
  }

  /**
   * Reads a row written by {@link #write}, of this minor format or an older one.
   *
   * @param bytes the row
   * @return the decoded row
   * @throws IOException if the bytes are not such a row, or a newer Sluice wrote fields this one
   *     does not know
   */
  public static StoredPoolState read(byte[] bytes) throws IOException {
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
    List<LeaseRecord> leases = readRows(in, "lease count", owners, LeaseRecord::new);
    List<WaiterRecord> waiters = readRows(in, "waiter count", owners, WaiterRecord::new);
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
    ControlState control = ControlState.NONE;
    if (in.left() != 0) {
      long minor = in.number();
      if (minor < 1) {
        throw new IOException("malformed pool state: an extension of minor format " + minor);
      }
      if (minor > MINOR) {
        // A reader cannot tell a newer row from a damaged one; a newer Sluice is the likely cause.
        throw new IOException(
            "pool state of minor format "
                + TAG
                + "."
                + minor
                + ", newer than this Sluice reads ("
                + TAG
                + ".0 to "
                + TAG
                + "."
                + MINOR
                + "): a newer Sluice wrote it, so upgrade this process (if none did, it is a"
                + " malformed pool state)");
      }
      control = readControl(in, minor);
      if (minor >= 4) {
        leases = markAttempts(in, "lease", leases, LeaseRecord::id, LeaseRecord::asAttempt);
        waiters = markAttempts(in, "waiter", waiters, WaiterRecord::id, WaiterRecord::asAttempt);
      }
    }
    if (in.left() != 0) {
      throw new IOException("malformed pool state: " + in.left() + " bytes after the end");
    }
    PoolState.Scalars scalars =
        new PoolState.Scalars(
            nextAllowedAt, limited == 1, reservoir, nextRefreshAt, lastEntryId, lastFencingToken);
    return new StoredPoolState(
        createdAt, scalars, control, traceCapacity, leases, waiters, lastPulse, pending);
  }

  /**
   * Reads the ids of the rows that are attempts of managed executions (minor 4) and marks them; an
   * id that names no row is damage.
   */
  private static <T> List<T> markAttempts(
      In in, String what, List<T> rows, ToLongFunction<T> id, UnaryOperator<T> mark)
      throws IOException {
    int count = in.sized(what + " attempt count");
    if (count == 0) {
      return rows;
    }
    Set<Long> ids = new HashSet<>();
    for (int i = 0; i < count; i++) {
      long listed = in.number();
      if (!ids.add(listed)) {
        throw new IOException(
            "malformed pool state: attempt " + what + " " + listed + " listed twice");
      }
    }
    List<T> marked = new ArrayList<>(rows.size());
    for (T row : rows) {
      marked.add(ids.remove(id.applyAsLong(row)) ? mark.apply(row) : row);
    }
    if (!ids.isEmpty()) {
      throw new IOException(
          "malformed pool state: attempt " + what + " " + ids.iterator().next() + " not found");
    }
    return marked;
  }

  /** A lease or a waiter from its id, its owner and its five numbers, in the order written. */
  private interface RowFactory<T> {
    T make(long id, String owner, long a, long b, long c, long d, long e);
  }

  /**
   * Leases and waiters share one row shape: a count, then per row an id, an owner, five numbers.
   */
  private static <T> List<T> readRows(In in, String what, String[] owners, RowFactory<T> factory)
      throws IOException {
    int count = in.sized(what);
    List<T> rows = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      rows.add(
          factory.make(
              in.number(),
              owners[in.count("owner index", owners.length - 1)],
              in.number(),
              in.number(),
              in.number(),
              in.number(),
              in.number()));
    }
    return rows;
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
