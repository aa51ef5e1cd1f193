/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.GateException;
import dev.sluice.gate.PermitPhase;
import dev.sluice.gate.TicketState;

/**
 * The moves every gate transition is made of: admitting the head of a queue, granting, ending a
 * request, minting and checking tokens. Shared by {@link GateMachine}, {@link Permits} and {@link
 * GateSweeper}, so that each rule exists once.
 */
final class Moves {
  /**
   * Tokens kept per request. Minting more (an agent asking again and again) forgets the oldest,
   * except the first permit token of the current grant: the launcher that claimed the permit must
   * be able to release it however often its agent asked since.
   */
  static final int TOKENS_PER_REQUEST = 16;

  private final GateState s;
  private final TokenMint mint;

  Moves(GateState s, TokenMint mint) {
    this.s = s;
    this.mint = mint;
  }

  GateState state() {
    return s;
  }

  /**
   * Strict FIFO: offers capacity to the head of the queue while it fits, and stops at the first
   * head that does not, so a heavy request is never starved by lighter ones behind it.
   */
  void admit(String poolName, long now) {
    PoolRecord pool = s.pool(poolName);
    int used = s.used(poolName);
    while (!pool.queue.isEmpty()) {
      Entry head = s.entries.get(pool.queue.peekFirst());
      if (used + head.weight > pool.capacity) {
        return;
      }
      pool.queue.removeFirst();
      head.round++;
      head.enter(TicketState.OFFERED, now);
      head.offerExpiresAt = now + s.settings.offerTtl().toMillis();
      used += head.weight;
      s.event(now, "offered", head, "until " + java.time.Instant.ofEpochMilli(head.offerExpiresAt));
    }
  }

  /** Turns an entry into a claimed permit whose work must start before the start deadline. */
  void hold(Entry e, long now) {
    e.enter(TicketState.HELD, now);
    e.phase = PermitPhase.CLAIMED;
    e.startDeadline = now + s.settings.startDeadline().toMillis();
    e.endReason = "";
  }

  /** Ends a live entry for good, frees what it held and lets the queue move. */
  void finish(Entry e, TicketState terminal, String reason, long now) {
    s.pool(e.pool).queue.remove(e.id);
    e.enter(terminal, now);
    e.endReason = reason;
    s.liveByKey.remove(GateState.key(e.agentId, e.opKey), e.id);
    admit(e.pool, now);
  }

  String mint(Entry e, TokenRecord.Kind kind) {
    String token = mint.next();
    String hash = TokenMint.hash(token);
    s.tokens.put(hash, new TokenRecord(e.id, kind, e.round));
    e.tokenHashes.addLast(hash);
    String kept = null;
    for (String h : e.tokenHashes) {
      TokenRecord t = s.tokens.get(h);
      if (t != null && t.kind() == TokenRecord.Kind.PERMIT && t.round() == e.round) {
        kept = h;
        break;
      }
    }
    while (e.tokenHashes.size() > TOKENS_PER_REQUEST) {
      String oldest = e.tokenHashes.removeFirst();
      if (oldest.equals(kept)) {
        String next = e.tokenHashes.removeFirst();
        s.tokens.remove(next);
        e.tokenHashes.addFirst(oldest);
      } else {
        s.tokens.remove(oldest);
      }
    }
    return token;
  }

  /**
   * The entry a token names, checked to be of the kind and round the operation needs.
   *
   * @throws GateException {@code unknown_token}, {@code wrong_state} or {@code stale_token}
   */
  Entry byToken(String token, TokenRecord.Kind kind, String operation) {
    TokenRecord t = token == null ? null : s.tokens.get(TokenMint.hash(token));
    Entry e = t == null ? null : s.entries.get(t.requestId());
    if (e == null) {
      throw new GateException(
          GateException.Code.UNKNOWN_TOKEN,
          "no request is known for this token (never issued, mistyped, or ended over "
              + s.settings.terminalRetention()
              + " ago)");
    }
    if (t.kind() != kind) {
      throw new GateException(
          GateException.Code.WRONG_STATE,
          operation
              + " takes "
              + (kind == TokenRecord.Kind.OFFER ? "an offer" : "a permit")
              + " token; this is "
              + (t.kind() == TokenRecord.Kind.OFFER ? "an offer" : "a permit")
              + " token of request "
              + e.id);
    }
    if (t.round() != e.round) {
      throw new GateException(
          GateException.Code.STALE_TOKEN,
          "the token belongs to an earlier offer of request " + e.id + ", which is now " + e.state);
    }
    return e;
  }

  Entry byId(String requestId, String agentId) {
    Entry e = requestId == null ? null : s.entries.get(requestId);
    if (e == null) {
      throw new GateException(
          GateException.Code.UNKNOWN_REQUEST, "no request '" + requestId + "' is known");
    }
    if (agentId != null && !e.agentId.equals(agentId)) {
      throw new GateException(
          GateException.Code.NOT_OWNER,
          "request " + e.id + " belongs to agent '" + e.agentId + "', not '" + agentId + "'");
    }
    return e;
  }

  /** What a live entry's owner is told, with a fresh token where its state has one. */
  AcquireOutcome answer(Entry e) {
    return switch (e.state) {
      case HELD -> new AcquireOutcome.Granted(s.snapshot(e), mint(e, TokenRecord.Kind.PERMIT));
      case OFFERED -> new AcquireOutcome.Offered(s.snapshot(e), mint(e, TokenRecord.Kind.OFFER));
      case QUEUED -> new AcquireOutcome.Queued(s.snapshot(e));
      case PAUSED -> new AcquireOutcome.Paused(s.snapshot(e));
      default -> throw new IllegalStateException("request " + e.id + " is " + e.state);
    };
  }

  /** The end reason of an explicit cancel starts with this, followed by who cancelled. */
  static final String CANCELLED_BY = "cancelled by ";

  /**
   * The agent's ended request under this key that still names it, if it is kept: one that held a
   * slot (now released), or that {@code cancel} ended. A request that never held anything and that
   * nobody cancelled (withdrawn by its own waiter on a queue timeout, cancelled because its waiting
   * process died, failed as heavier than a new capacity) leaves the key free for a new decision.
   */
  Entry spentUnder(String agentId, String opKey) {
    for (Entry e : s.entries.values()) {
      boolean spent =
          e.state == TicketState.RELEASED
              || (e.state == TicketState.CANCELLED && e.endReason.startsWith(CANCELLED_BY));
      if (spent && e.agentId.equals(agentId) && e.opKey.equals(opKey)) {
        return e;
      }
    }
    return null;
  }

  static GateException ended(Entry e, String operation) {
    if (e.state == TicketState.CANCELLED && e.endReason.startsWith(CANCELLED_BY)) {
      return new GateException(
          GateException.Code.CANCELLED,
          "request " + e.id + " (pool " + e.pool + ") was " + e.endReason);
    }
    if (e.endReason.equals(GateSweeper.START_DEADLINE_PASSED)) {
      return new GateException(
          GateException.Code.START_DEADLINE_PASSED,
          "request " + e.id + ": the start deadline passed before " + operation + "; reclaimed");
    }
    return new GateException(
        GateException.Code.WRONG_STATE,
        "request "
            + e.id
            + " is "
            + e.state.name().toLowerCase(java.util.Locale.ROOT)
            + (e.endReason.isEmpty() ? "" : " (" + e.endReason + ")")
            + "; "
            + operation
            + " does not apply");
  }
}
