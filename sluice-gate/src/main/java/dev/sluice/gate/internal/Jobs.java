/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import dev.sluice.gate.GateException;
import dev.sluice.gate.JobRef;
import dev.sluice.gate.KillPlan;
import dev.sluice.gate.PermitPhase;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.TicketState;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Jobs as people name them, by request id or by label, for {@code cancel} and {@code kill}: finds
 * the one job a name means (refusing a label that names none or several), cancels a waiting one and
 * plans the kill of a running one. A refusal changes nothing.
 *
 * <p>Not thread-safe: a store applies one transition at a time, after {@link GateSweeper#tick}.
 */
public final class Jobs {
  private final GateState s;
  private final GateMachine machine;

  /**
   * Jobs of one state.
   *
   * @param state the state
   * @param machine the transitions that cancel a waiting job
   */
  public Jobs(GateState state, GateMachine machine) {
    this.s = state;
    this.machine = machine;
  }

  /**
   * The job {@code ref} names: by id, live or ended within the retention; by label, the one live
   * job with that label.
   *
   * @throws GateException {@code unknown_request}, {@code unknown_label} or {@code ambiguous_label}
   */
  public Ticket find(JobRef ref) {
    return s.snapshot(entry(ref));
  }

  /**
   * Cancels the waiting job {@code ref} names, as {@link GateMachine#cancel(String, String, String,
   * long)} does.
   */
  public Ticket cancel(String agentId, JobRef ref, String by, long now) {
    return machine.cancel(agentId, entry(ref).id, by, now);
  }

  /**
   * Starts a kill: a waiting job is cancelled (a kill of a job that never ran is its cancel); for a
   * running one whose process group this process can see, a {@code killed} event naming {@code by}
   * and {@code signal} is recorded and the group is returned for the caller to signal.
   *
   * @param agentId who asks; must be the job's agent
   * @param by who kills, as people read it (for example {@code alice (pid 4242)})
   * @param signal the signal the caller sends first, for example {@code SIGTERM}
   * @throws GateException {@code unknown_request}, {@code unknown_label}, {@code ambiguous_label},
   *     {@code not_owner}, or {@code wrong_state} for a job that ended or has no process group to
   *     signal from here
   */
  public KillPlan kill(String agentId, JobRef ref, String by, String signal, long now) {
    Entry e = entry(ref);
    if (!e.state.isLive() && e.state != TicketState.CANCELLED) {
      throw Moves.ended(e, "kill");
    }
    if (e.state != TicketState.HELD) {
      // Waiting or already cancelled: cancel answers (and refuses an ended job) as for itself.
      return new KillPlan.Cancelled(machine.cancel(agentId, e.id, by, now));
    }
    if (!e.agentId.equals(agentId)) {
      throw new GateException(
          GateException.Code.NOT_OWNER,
          "request "
              + e.id
              + " belongs to agent '"
              + e.agentId
              + "', not '"
              + agentId
              + "'; an operator stops it with force-release --kill "
              + e.id);
    }
    if (e.phase != PermitPhase.RUNNING_TRACKED) {
      throw nothingToSignal(e);
    }
    switch (ProcTable.liveness(e.process)) {
      case UNVERIFIABLE ->
          throw groupRefused(
              e,
              "is in pid namespace " + e.process.pidNamespace() + ", not this one; kill it there");
      case DEAD -> throw groupRefused(e, "has already ended; the slot is released with it");
      case ALIVE -> {}
    }
    s.event(now, "killed", e, "by " + by + ": " + signal + " to process group " + e.process.pgid());
    return new KillPlan.SignalGroup(s.snapshot(e), e.process);
  }

  private static GateException groupRefused(Entry e, String why) {
    return new GateException(
        GateException.Code.WRONG_STATE,
        "request " + e.id + ": its process group " + e.process.pgid() + " " + why);
  }

  private static GateException nothingToSignal(Entry e) {
    String why =
        e.phase == PermitPhase.CLAIMED
            ? " holds a permit whose process has not started yet"
            : " holds an untracked permit (mark-started), with no process group";
    return new GateException(
        GateException.Code.WRONG_STATE,
        "request "
            + e.id
            + why
            + ": there is nothing to signal; its agent releases it, or force-release "
            + e.id
            + " frees the slot");
  }

  private Entry entry(JobRef ref) {
    if (ref instanceof JobRef.ById id) {
      Entry e = s.entries.get(id.requestId());
      if (e == null) {
        throw new GateException(
            GateException.Code.UNKNOWN_REQUEST,
            "no job '"
                + id.requestId()
                + "' is known (never made, mistyped, or ended over "
                + s.settings.terminalRetention()
                + " ago); sluice jobs lists them");
      }
      return e;
    }
    String label = ((JobRef.ByLabel) ref).label();
    List<Entry> live =
        s.entries.values().stream().filter(e -> e.state.isLive() && e.label.equals(label)).toList();
    if (live.isEmpty()) {
      throw new GateException(
          GateException.Code.UNKNOWN_LABEL,
          "no queued or running job has the label '" + label + "'; sluice jobs lists them");
    }
    if (live.size() > 1) {
      String ids =
          live.stream()
              .map(e -> e.id + " (" + e.state.name().toLowerCase(Locale.ROOT) + ")")
              .collect(Collectors.joining(", "));
      throw new GateException(
          GateException.Code.AMBIGUOUS_LABEL,
          "the label '"
              + label
              + "' names "
              + live.size()
              + " jobs: "
              + ids
              + "; give one of their ids instead");
    }
    return live.get(0);
  }
}
