/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.GateJson;
import dev.sluice.cli.JsonObject;
import dev.sluice.cli.serve.Actions;
import dev.sluice.gate.CapacityChange;
import dev.sluice.gate.ForceReleaseOutcome;
import dev.sluice.gate.GateException;
import dev.sluice.gate.GateService;
import dev.sluice.gate.JobRef;
import dev.sluice.gate.Ticket;

/**
 * The console's actions, done as the verbs do them and answered with their {@code --json} answers.
 * The console acts as an operator (recorded as {@code actor}): it may cancel any agent's waiting
 * request, as the user who runs it could by acting as that agent, and force-release any permit, as
 * {@code force-release} may.
 *
 * <p>Thread-safe (the gate is); each call blocks for the gate, a kill for up to twice {@link
 * GroupKill#DEFAULT_GRACE}.
 */
final class ServeActions implements Actions {
  private final GateService gate;
  private final String actor;

  ServeActions(GateService gate, String actor) {
    this.gate = gate;
    this.actor = actor;
  }

  @Override
  public JsonObject cancel(String requestId) {
    Ticket t =
        gate.ticket(requestId)
            .orElseThrow(
                () ->
                    new GateException(
                        GateException.Code.UNKNOWN_REQUEST,
                        "no request '" + requestId + "' is known"));
    // The gate lets an agent cancel only its own requests; the operator acts as the owner.
    return GateJson.ticket(gate.cancel(t.agentId(), JobRef.id(requestId)))
        .put("action", "cancelled");
  }

  @Override
  public JsonObject forceRelease(String requestId, boolean kill, String reason)
      throws InterruptedException {
    String why = reason;
    GroupKill.Result killed = GroupKill.Result.NOTHING;
    if (kill) {
      killed = GroupKill.stop(gate, requestId, actor, GroupKill.DEFAULT_GRACE);
      String done = killed.describe();
      why = done.isEmpty() ? reason : reason.isEmpty() ? done : reason + "; " + done;
    }
    ForceReleaseOutcome f = gate.forceReleaseChecked(requestId, actor, why);
    JsonObject json = GateJson.release(f.release());
    json.put("processGroupRunning", f.stillRunning().isPresent());
    f.stillRunning().ifPresent(p -> json.put("pgid", p.pgid()));
    if (killed.outcome() != GroupKill.Outcome.NOTHING_RUNNING) {
      json.put("killed", killed.endedBy()).put("pgid", killed.pgid());
    }
    return json;
  }

  @Override
  public JsonObject setCapacity(String pool, int capacity, String reason) {
    CapacityChange c = gate.setCapacity(pool, capacity, actor, reason);
    return GateJson.capacityChange(c);
  }
}
