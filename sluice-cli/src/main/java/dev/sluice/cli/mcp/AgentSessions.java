/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.mcp;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.GateService;
import dev.sluice.gate.Pending;
import dev.sluice.gate.PermitPhase;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Who each MCP session is at the gate, and what the server does for it while it lives and when it
 * ends.
 *
 * <p>An agent id is the client's name (from {@code initialize}) and a random id of the session,
 * {@code claude-code/3fa2b1c9}: two sessions of one client never share requests, and no tool
 * argument can act as another agent.
 *
 * <p>While an agent has untracked permits ({@code mark-started}) the server renews their leases
 * every third of the gate's untracked lease, until none is left. When the session ends, the agent's
 * waiting requests are cancelled and its permits released, except those bound to a process group by
 * {@code start}: they end with their processes, as they do for the command.
 *
 * <p>Thread-safe; a renewal or the end of a session blocks for the gate's lock.
 */
final class AgentSessions implements AutoCloseable {
  /** Why the server releases a session's permits, as the gate records it. */
  static final String SESSION_ENDED = "mcp session ended";

  private static final SecureRandom RANDOM = new SecureRandom();

  private final GateService gate;
  private final Map<String, String> agents = new ConcurrentHashMap<>();
  private final Map<String, ScheduledFuture<?>> renewals = new java.util.HashMap<>();
  private final ScheduledExecutorService timer;

  AgentSessions(GateService gate) {
    this.gate = gate;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "sluice-mcp-heartbeat");
              t.setDaemon(true);
              return t;
            });
  }

  /** The agent id of {@code exchange}'s session, made on its first call. */
  String agentOf(McpSyncServerExchange exchange) {
    String session = exchange.sessionId() == null ? "stdio" : exchange.sessionId();
    return agents.computeIfAbsent(session, s -> agentId(exchange.getClientInfo()));
  }

  /** {@code <client name>/<8 hex digits>}: the client's name reduced to a safe word. */
  static String agentId(McpSchema.Implementation client) {
    String name = client == null || client.name() == null ? "" : client.name();
    String word = name.replaceAll("[^A-Za-z0-9._-]+", "-").replaceAll("^-+|-+$", "");
    if (word.isEmpty()) {
      word = "mcp-client";
    }
    if (word.length() > 48) {
      word = word.substring(0, 48);
    }
    byte[] id = new byte[4];
    RANDOM.nextBytes(id);
    return word + "/" + HexFormat.of().formatHex(id);
  }

  /** Renews {@code agent}'s untracked leases from now on, until it has none. */
  synchronized void keepAlive(String agent) {
    if (!renewals.containsKey(agent) && !timer.isShutdown()) {
      // The lease as configured now (sluice config set untracked.lease); at least 1 s.
      long every = Math.max(1, gate.settings().untrackedLease().toMillis() / 3);
      renewals.put(
          agent,
          timer.scheduleAtFixedRate(() -> renew(agent), every, every, TimeUnit.MILLISECONDS));
    }
  }

  /**
   * One renewal. Synchronized with {@link #keepAlive}: a mark-started that arms the renewal either
   * finds this one still scheduled or comes after it was removed, so no started permit is left
   * without renewals.
   */
  private synchronized void renew(String agent) {
    int extended;
    try {
      extended = gate.heartbeat(agent);
    } catch (RuntimeException e) {
      // The gate is unreadable for now (its configuration file being edited): the next turn tries
      // again, well within the lease.
      return;
    }
    if (extended == 0) {
      ScheduledFuture<?> task = renewals.remove(agent);
      if (task != null) {
        task.cancel(false);
      }
    }
  }

  /**
   * Ends every session's business at the gate: waiting requests cancelled, permits not bound to a
   * process group released. Called when the client has gone (its stdin ended, or it stopped the
   * server with a signal); a second call does nothing.
   */
  @Override
  public synchronized void close() {
    if (timer.isShutdown()) {
      return;
    }
    timer.shutdownNow();
    for (String agent : List.copyOf(agents.values())) {
      end(agent);
    }
  }

  private void end(String agent) {
    Pending p = gate.pending(agent);
    for (AcquireOutcome o : waiting(p)) {
      try {
        gate.cancel(agent, o.ticket().requestId());
      } catch (RuntimeException e) {
        // Granted or ended meanwhile: what is still held is released below.
      }
    }
    for (AcquireOutcome.Granted g : gate.pending(agent).held()) {
      if (g.ticket().phase() != PermitPhase.RUNNING_TRACKED) {
        gate.release(g.permitToken(), SESSION_ENDED);
      }
    }
  }

  private static List<AcquireOutcome> waiting(Pending p) {
    List<AcquireOutcome> all = new java.util.ArrayList<>();
    all.addAll(p.offers());
    all.addAll(p.queued());
    all.addAll(p.paused());
    return all;
  }
}
