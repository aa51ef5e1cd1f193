/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.sluice.spi.ControlState;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.WaiterRecord;
import dev.sluice.spi.support.StoredPoolState;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The stored form of a pool's state in format {@code sluice-limiter-pool/1}, except its trace: one
 * JSON document, readable with the {@code sqlite3} shell. New pools use {@link
 * dev.sluice.spi.support.PoolStateCodec}; pools created in format 1 keep this one, so processes of
 * an older Sluice on them still read every row. Leases and waiters are arrays of fields in a fixed
 * order, to keep it small. The trace lives in its own table, written incrementally ({@link
 * StateDb}).
 *
 * <p>Thread-safe.
 */
final class StateCodec {
  private static final JsonFactory JSON = new JsonFactory();

  private StateCodec() {}

  static String write(PoolState s) {
    // Operation records serve only a drain, which such a pool cannot keep: they are not written,
    // nor is whether a lease or waiter is an attempt, which only decides what a drain records.
    if (!s.control().withOperations(List.of()).isNone()) {
      // Older processes on such a pool read every field of this document: a field they do not know
      // would be lost on their next write, so the state is refused rather than silently dropped.
      throw new dev.sluice.StoreFormatException(
          "a pool in format sluice-limiter-pool/1 cannot keep a cooldown, circuit breaker or drain;"
              + " create the pool anew (a new directory) to use them; nothing was changed");
    }
    StringWriter out = new StringWriter(256);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      PoolState.Scalars sc = s.scalars();
      g.writeStartObject();
      g.writeNumberField("createdAt", s.createdAt());
      g.writeNumberField("nextAllowedAt", sc.nextAllowedAt());
      g.writeBooleanField("reservoirLimited", sc.reservoirLimited());
      g.writeNumberField("reservoir", sc.reservoir());
      g.writeNumberField("nextRefreshAt", sc.nextRefreshAt());
      g.writeNumberField("lastEntryId", sc.lastEntryId());
      g.writeNumberField("lastFencingToken", sc.lastFencingToken());
      g.writeNumberField("traceCapacity", s.trace().capacity());
      g.writeArrayFieldStart("leases");
      for (LeaseRecord l : s.leases()) {
        row(
            g,
            l.id(),
            l.owner(),
            l.ownerRef(),
            l.weight(),
            l.grantedAt(),
            l.expiresAt(),
            l.fencingToken());
      }
      g.writeEndArray();
      g.writeArrayFieldStart("waiters");
      for (WaiterRecord w : s.waiters()) {
        row(
            g,
            w.id(),
            w.owner(),
            w.ownerRef(),
            w.weight(),
            w.enqueuedAt(),
            w.queueDeadline(),
            w.leaseLifetime());
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new IllegalStateException("cannot encode pool state", e);
    }
    return out.toString();
  }

  /** Leases and waiters share one row shape: id, owner, then five numbers. */
  private static void row(JsonGenerator g, long id, String owner, long... numbers)
      throws IOException {
    g.writeStartArray();
    g.writeNumber(id);
    g.writeString(owner);
    for (long n : numbers) {
      g.writeNumber(n);
    }
    g.writeEndArray();
  }

  /**
   * Reads a state written by {@link #write}.
   *
   * @throws IOException if the text is not such a state
   */
  static StoredPoolState read(String text) throws IOException {
    long createdAt = 0;
    long nextAllowedAt = 0;
    boolean limited = false;
    long reservoir = 0;
    long nextRefreshAt = PoolState.NEVER;
    long lastEntryId = 0;
    long lastFencingToken = 0;
    int traceCapacity = 0;
    List<LeaseRecord> leases = new ArrayList<>();
    List<WaiterRecord> waiters = new ArrayList<>();
    try (JsonParser p = JSON.createParser(text)) {
      expect(p.nextToken(), JsonToken.START_OBJECT);
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        p.nextToken();
        switch (field) {
          case "createdAt" -> createdAt = p.getLongValue();
          case "nextAllowedAt" -> nextAllowedAt = p.getLongValue();
          case "reservoirLimited" -> limited = p.getBooleanValue();
          case "reservoir" -> reservoir = p.getLongValue();
          case "nextRefreshAt" -> nextRefreshAt = p.getLongValue();
          case "lastEntryId" -> lastEntryId = p.getLongValue();
          case "lastFencingToken" -> lastFencingToken = p.getLongValue();
          case "traceCapacity" -> traceCapacity = p.getIntValue();
          case "leases" -> readRows(p, r -> leases.add(lease(p)));
          case "waiters" -> readRows(p, r -> waiters.add(waiter(p)));
          default -> p.skipChildren();
        }
      }
    } catch (RuntimeException e) {
      throw new IOException("malformed pool state: " + e.getMessage(), e);
    }
    PoolState.Scalars scalars =
        new PoolState.Scalars(
            nextAllowedAt, limited, reservoir, nextRefreshAt, lastEntryId, lastFencingToken);
    return new StoredPoolState(
        createdAt,
        scalars,
        ControlState.NONE,
        traceCapacity,
        leases,
        waiters,
        StoredPoolState.UNKNOWN,
        List.of());
  }

  private interface Row {
    void read(JsonParser p) throws IOException;
  }

  private static void readRows(JsonParser p, Row row) throws IOException {
    expect(p.currentToken(), JsonToken.START_ARRAY);
    while (p.nextToken() == JsonToken.START_ARRAY) {
      row.read(p);
      expect(p.nextToken(), JsonToken.END_ARRAY);
    }
  }

  private static LeaseRecord lease(JsonParser p) throws IOException {
    return new LeaseRecord(
        nextLong(p),
        nextString(p),
        nextLong(p),
        nextLong(p),
        nextLong(p),
        nextLong(p),
        nextLong(p));
  }

  private static WaiterRecord waiter(JsonParser p) throws IOException {
    return new WaiterRecord(
        nextLong(p),
        nextString(p),
        nextLong(p),
        nextLong(p),
        nextLong(p),
        nextLong(p),
        nextLong(p));
  }

  private static long nextLong(JsonParser p) throws IOException {
    expect(p.nextToken(), JsonToken.VALUE_NUMBER_INT);
    return p.getLongValue();
  }

  private static String nextString(JsonParser p) throws IOException {
    expect(p.nextToken(), JsonToken.VALUE_STRING);
    return p.getText();
  }

  private static void expect(JsonToken actual, JsonToken expected) throws IOException {
    if (actual != expected) {
      throw new IOException("expected " + expected + " but found " + actual);
    }
  }
}
