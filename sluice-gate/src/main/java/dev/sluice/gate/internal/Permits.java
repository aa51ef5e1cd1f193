/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import dev.sluice.gate.GateException;
import dev.sluice.gate.HeartbeatOutcome;
import dev.sluice.gate.PermitLoss;
import dev.sluice.gate.PermitPhase;
import dev.sluice.gate.ProcessRef;
import dev.sluice.gate.ReleaseOutcome;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.TicketState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The transitions of held permits: binding one to a process or to a heartbeat lease, heartbeats,
 * release (by token, by an operator, or on proof that its process group ended). Every held permit
 * has an automatic exit: its start deadline, the end of its process group, or its lease.
 *
 * <p>Not thread-safe: a store applies one transition at a time, after {@link GateSweeper#tick}.
 */
public final class Permits {
  static final String OWNER_EXITED = "owner_exited";

  private final GateState s;
  private final Moves moves;

  /**
   * Permit transitions over one state.
   *
   * @param state the state they change
   * @param mint where new tokens come from
   */
  public Permits(GateState state, TokenMint mint) {
    this.s = state;
    this.moves = new Moves(state, mint);
  }

  /**
   * Binds a claimed (or untracked) permit to a process group: from now on it ends when every
   * process of the group has exited, however long that takes. Binding the same process again is a
   * no-op.
   *
   * @throws GateException {@code already_started} if bound to another process; {@code
   *     start_deadline_passed}; {@code unknown_token}, {@code wrong_state}
   */
  public Ticket start(String permitToken, ProcessRef process, long now) {
    return start(permitToken, process, "", now);
  }

  /**
   * Like {@link #start(String, ProcessRef, long)}, recording the owner registration of the
   * launcher: while it lives, the launcher itself reports the end of the group.
   */
  public Ticket start(String permitToken, ProcessRef process, String launcher, long now) {
    // Checked first: a null found after the phase changed would leave a tracked permit unbound.
    java.util.Objects.requireNonNull(process, "process");
    Entry e = held(permitToken, "start");
    if (e.phase == PermitPhase.RUNNING_TRACKED) {
      if (e.process.pid() == process.pid() && e.process.startTicks() == process.startTicks()) {
        touch(s, e.agentId, now);
        return s.snapshot(e);
      }
      throw new GateException(
          GateException.Code.ALREADY_STARTED,
          "request " + e.id + " is already bound to pid " + e.process.pid());
    }
    e.phase = PermitPhase.RUNNING_TRACKED;
    e.process = process;
    e.owner = launcher;
    e.startDeadline = 0;
    e.leaseDeadline = 0;
    s.event(now, "started", e, "pid " + process.pid() + ", pgid " + process.pgid());
    touch(s, e.agentId, now);
    return s.snapshot(e);
  }

  /**
   * Starts a permit without a process to watch: it lives while its agent sends heartbeats (within
   * the untracked lease). A tracked permit is left as it is.
   *
   * @throws GateException {@code start_deadline_passed}, {@code unknown_token}, {@code wrong_state}
   */
  public Ticket markStarted(String permitToken, long now) {
    Entry e = held(permitToken, "mark-started");
    if (e.phase != PermitPhase.RUNNING_TRACKED) {
      boolean first = e.phase == PermitPhase.CLAIMED;
      e.phase = PermitPhase.RUNNING_UNTRACKED;
      e.startDeadline = 0;
      e.leaseDeadline = now + s.settings.untrackedLease().toMillis();
      if (first) {
        s.event(now, "marked_started", e, "");
      }
    }
    touch(s, e.agentId, now);
    return s.snapshot(e);
  }

  /**
   * Records that an agent is alive: extends the lease of each of its untracked permits.
   *
   * @return how many leases were extended
   */
  public int heartbeat(String agentId, long now) {
    return touch(s, agentId, now);
  }

  /**
   * A heartbeat that also says which permits were lost. With {@code permitTokens}, each names a
   * permit: a held one extends its agent's leases, a lost one is answered in {@code lost}. Without
   * tokens, every untracked lease of {@code agentId} is extended, and if there was none, the
   * agent's newest permit is answered in {@code lost} when the gate took it back.
   *
   * @throws GateException {@code unknown_token}, {@code stale_token}, or {@code wrong_state} for a
   *     token whose permit ended in an ordinary way
   */
  public HeartbeatOutcome heartbeat(String agentId, List<String> permitTokens, long now) {
    List<Ticket> lost = new ArrayList<>();
    List<Entry> held = new ArrayList<>();
    for (String token : permitTokens) {
      Entry e = moves.byToken(token, TokenRecord.Kind.PERMIT, "heartbeat");
      if (e.state == TicketState.HELD) {
        held.add(e);
      } else if (PermitLoss.of(e.endReason).isPresent()) {
        lost.add(s.snapshot(e));
      } else {
        throw Moves.ended(e, "heartbeat");
      }
    }
    if (!permitTokens.isEmpty()) {
      Set<String> agents = new TreeSet<>();
      held.forEach(e -> agents.add(e.agentId));
      int n = 0;
      for (String agent : agents) {
        n += touch(s, agent, now);
      }
      return new HeartbeatOutcome(n, lost);
    }
    int n = touch(s, agentId, now);
    if (n == 0) {
      newestPermit(agentId)
          .filter(e -> PermitLoss.of(e.endReason).isPresent())
          .ifPresent(e -> lost.add(s.snapshot(e)));
    }
    return new HeartbeatOutcome(n, lost);
  }

  /** The agent's permit (held or ended after a grant) that changed last. */
  private Optional<Entry> newestPermit(String agentId) {
    return s.entries.values().stream()
        .filter(e -> e.agentId.equals(agentId))
        .filter(e -> e.state == TicketState.HELD || e.state == TicketState.RELEASED)
        .max(Comparator.comparingLong((Entry e) -> e.since));
  }

  static int touch(GateState s, String agentId, long now) {
    int n = 0;
    for (Entry e : s.entries.values()) {
      if (e.phase == PermitPhase.RUNNING_UNTRACKED && e.agentId.equals(agentId)) {
        e.leaseDeadline = now + s.settings.untrackedLease().toMillis();
        n++;
      }
    }
    return n;
  }

  /**
   * Releases a permit. Idempotent: releasing an ended permit answers its original reason.
   *
   * @param reason why, possibly empty ({@code released})
   * @throws GateException {@code unknown_token}, {@code wrong_state}
   */
  public ReleaseOutcome release(String permitToken, String reason, long now) {
    Entry e = moves.byToken(permitToken, TokenRecord.Kind.PERMIT, "release");
    touch(s, e.agentId, now);
    if (e.state != TicketState.HELD) {
      return new ReleaseOutcome(s.snapshot(e), true, e.endReason);
    }
    String why = reason == null || reason.isBlank() ? "released" : reason;
    s.event(now, "released", e, why);
    moves.finish(e, TicketState.RELEASED, why, now);
    return new ReleaseOutcome(s.snapshot(e), false, why);
  }

  /**
   * An operator's release of someone else's permit, recorded with the actor.
   *
   * @throws GateException {@code unknown_request}, or {@code wrong_state} if it holds nothing
   */
  public ReleaseOutcome forceRelease(String requestId, String actor, long now) {
    return forceRelease(requestId, actor, "", now);
  }

  /**
   * Like {@link #forceRelease(String, String, long)}, with the operator's reason, possibly empty.
   */
  public ReleaseOutcome forceRelease(String requestId, String actor, String reason, long now) {
    return forceRelease(requestId, actor, reason, "", now);
  }

  /**
   * Like {@link #forceRelease(String, String, String, long)}, with a note for the event (such as
   * that the permit's process group still runs), possibly empty.
   */
  public ReleaseOutcome forceRelease(
      String requestId, String actor, String reason, String note, long now) {
    Entry e = moves.byId(requestId, null);
    if (e.state == TicketState.RELEASED) {
      return new ReleaseOutcome(s.snapshot(e), true, e.endReason);
    }
    if (e.state != TicketState.HELD) {
      throw Moves.ended(e, "force-release");
    }
    String why = "force_released by " + actor + (reason.isEmpty() ? "" : ": " + reason);
    s.event(
        now,
        "force_released",
        e,
        actor + (reason.isEmpty() ? "" : ": " + reason) + (note.isEmpty() ? "" : "; " + note));
    moves.finish(e, TicketState.RELEASED, why, now);
    return new ReleaseOutcome(s.snapshot(e), false, why);
  }

  /**
   * Records that an operator signalled a permit's process group ({@code force-release --kill}); the
   * permit itself is left as it is, to end with its group.
   *
   * @throws GateException {@code unknown_request}
   */
  public void signalled(String requestId, String actor, String detail, long now) {
    Entry e = moves.byId(requestId, null);
    s.event(now, "signalled", e, actor + ": " + detail);
  }

  /**
   * Releases a tracked permit whose process group was seen to end. Only positive evidence counts: a
   * caller that cannot see the group (another pid namespace) never calls this.
   *
   * @return whether the permit was released (false if it already ended or was rebound)
   */
  public boolean processEnded(String requestId, ProcessRef process, long now) {
    Entry e = s.entries.get(requestId);
    if (e == null
        || e.state != TicketState.HELD
        || e.phase != PermitPhase.RUNNING_TRACKED
        || !e.process.equals(process)) {
      return false;
    }
    s.event(now, "released", e, "process_exited");
    moves.finish(e, TicketState.RELEASED, "process_exited", now);
    return true;
  }

  /**
   * Ends what only a dead owner could have finished: its waiting requests are cancelled and its
   * unstarted or untracked permits released. A tracked permit stays held while its process group
   * lives; it merely loses its launcher, and from then on waiters check the group themselves.
   *
   * @param owner an owner registration proven dead
   * @return whether anything changed
   */
  public boolean ownerGone(String owner, long now) {
    boolean changed = false;
    for (Entry e : List.copyOf(s.entries.values())) {
      if (!e.owner.equals(owner) || !e.state.isLive()) {
        continue;
      }
      changed = true;
      if (e.phase == PermitPhase.RUNNING_TRACKED) {
        e.owner = "";
        s.event(now, "launcher_gone", e, "watching pgid " + e.process.pgid());
      } else if (e.state == TicketState.HELD) {
        s.event(now, "released", e, OWNER_EXITED);
        moves.finish(e, TicketState.RELEASED, OWNER_EXITED, now);
      } else {
        s.event(now, "cancelled", e, OWNER_EXITED);
        moves.finish(e, TicketState.CANCELLED, OWNER_EXITED, now);
      }
    }
    return changed;
  }

  private Entry held(String permitToken, String operation) {
    Entry e = moves.byToken(permitToken, TokenRecord.Kind.PERMIT, operation);
    if (e.state != TicketState.HELD) {
      GateException ended = Moves.ended(e, operation);
      Optional<PermitLoss> loss = PermitLoss.of(e.endReason);
      if (loss.isPresent()) {
        throw new GateException(
            ended.code(),
            ended.getMessage() + ": the permit was lost (" + e.endReason + "); stop its work",
            loss.get());
      }
      throw ended;
    }
    return e;
  }
}
