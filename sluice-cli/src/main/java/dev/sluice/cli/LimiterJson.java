/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import dev.sluice.ControlStatus;
import dev.sluice.LimiterConfig;
import dev.sluice.PoolSnapshot;
import dev.sluice.TraceEvent;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The JSON of a SQLite limiter pool, as {@code sluice pool status} prints it and {@code sluice
 * serve}'s console shows it: the pool's control state (drain, cooldown, circuit) from {@link
 * ControlStatus}, and, for the console, the shared state from {@link PoolSnapshot} (capacity and
 * active weight, reservoir and next refill, queue, leases with owners and fencing tokens, trace).
 * Times are ISO-8601 instants.
 *
 * <p>Stateless and thread-safe; never blocks.
 */
public final class LimiterJson {
  private LimiterJson() {}

  /** The pool directory, its capacity (when limited) and normalized configuration. */
  public static JsonObject pool(Path poolDir, LimiterConfig config) {
    return pool(GateJson.object().put("poolDir", poolDir.toAbsolutePath().toString()), config);
  }

  /** Adds the pool's capacity (when limited) and normalized configuration to {@code json}. */
  public static JsonObject pool(JsonObject json, LimiterConfig config) {
    if (config.maxConcurrent().isPresent()) {
      json.put("capacity", config.maxConcurrent().getAsLong());
    }
    return json.put("config", config.normalizedForm());
  }

  /** Adds the drain, cooldown and circuit state of {@code s} to {@code json}. */
  public static JsonObject control(JsonObject json, ControlStatus s) {
    json.put("generation", s.generation())
        .put("draining", s.draining())
        .put("settled", s.settled())
        .put("clean", s.clean())
        .put("activeLeases", s.activeLeases())
        .put("waiters", s.waiters())
        .put("runningOperations", s.runningOperations())
        .put("circuit", s.circuit().name().toLowerCase(Locale.ROOT));
    s.cooldownUntil().ifPresent(t -> json.put("cooldownUntil", t.toString()));
    s.circuitOpenUntil().ifPresent(t -> json.put("circuitOpenUntil", t.toString()));
    List<JsonObject> unconfirmed = new ArrayList<>();
    for (ControlStatus.UnconfirmedOperation u : s.unconfirmed()) {
      unconfirmed.add(
          GateJson.object()
              .put("id", u.id())
              .put("owner", u.owner())
              .put("generation", u.generation())
              .put("acknowledged", u.acknowledged())
              .put("reason", u.reason()));
    }
    return json.set("unconfirmed", unconfirmed);
  }

  /**
   * Adds the shared state of {@code s} to {@code json}: {@code activeWeight}, {@code reservoir} and
   * {@code nextRefill} (absent when unlimited or never refilled), {@code leases}, {@code queue} and
   * {@code trace} (oldest first). {@code takenAt} is left out, so two views of an unchanged pool
   * are equal.
   */
  public static JsonObject shared(JsonObject json, PoolSnapshot s) {
    json.put("activeWeight", s.activeWeight());
    s.reservoir().ifPresent(r -> json.put("reservoir", r));
    s.nextRefill().ifPresent(t -> json.put("nextRefill", t.toString()));
    json.set("leases", GateJson.array(s.leases(), LimiterJson::lease));
    json.set("queue", GateJson.array(s.waiters(), LimiterJson::waiter));
    return json.set("trace", GateJson.array(s.trace(), LimiterJson::trace));
  }

  private static JsonObject lease(PoolSnapshot.LeaseInfo l) {
    JsonObject o =
        GateJson.object()
            .put("leaseId", l.leaseId())
            .put("owner", l.owner())
            .put("weight", l.weight())
            .put("grantedAt", l.grantedAt().toString())
            .put("fencingToken", l.fencingToken());
    return time(o, "expiresAt", l.expiresAt());
  }

  private static JsonObject waiter(PoolSnapshot.WaiterInfo w) {
    JsonObject o =
        GateJson.object()
            .put("entryId", w.entryId())
            .put("owner", w.owner())
            .put("weight", w.weight())
            .put("enqueuedAt", w.enqueuedAt().toString());
    return time(o, "queueDeadline", w.queueDeadline());
  }

  private static JsonObject trace(TraceEvent e) {
    return GateJson.object()
        .put("sequence", e.sequence())
        .put("kind", e.kind().name().toLowerCase(Locale.ROOT))
        .put("leaseId", e.leaseId())
        .put("owner", e.owner())
        .put("activeWeight", e.activeWeight())
        .put("at", e.at().toString());
  }

  private static JsonObject time(JsonObject o, String name, Optional<Instant> at) {
    at.ifPresent(t -> o.put(name, t.toString()));
    return o;
  }
}
