/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import dev.sluice.cli.JsonObject;
import dev.sluice.workflow.ExecutionDetails;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.FailureRecord;
import dev.sluice.workflow.spi.StepOutcome;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.WaiterRecord;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The console's JSON for workflow executions: a summary per listed execution, and one execution's
 * steps, timer and wait. Times are ISO-8601 instants; inputs, outputs and step values are the
 * codec's JSON text, as strings. Stateless and thread-safe.
 */
final class WorkflowJson {
  /** How many stack frames of a failure are shown. */
  private static final int FRAMES = 12;

  private WorkflowJson() {}

  static JsonObject counts(Map<ExecutionStatus, Long> counts) {
    JsonObject o = new JsonObject();
    counts.forEach((s, n) -> o.put(s.code(), n));
    return o;
  }

  static JsonObject summary(ExecutionRecord e) {
    JsonObject o =
        new JsonObject()
            .put("id", e.id())
            .put("workflow", e.workflow())
            .put("version", e.version())
            .put("status", e.status().code())
            .put("createdAt", time(e.createdAt()))
            .put("updatedAt", time(e.updatedAt()))
            .put("claimEpoch", e.claimEpoch());
    if (e.hasDeadline()) {
      o.put("deadlineAt", time(e.deadlineAt()));
    }
    if (e.claimOwner() != null) {
      o.put("claimOwner", e.claimOwner());
    }
    return o;
  }

  static JsonObject details(ExecutionDetails d) {
    ExecutionRecord e = d.execution();
    JsonObject o = summary(e).put("input", e.input());
    if (e.output() != null) {
      o.put("output", e.output());
    }
    if (e.failure() != null) {
      o.set("failure", failure(e.failure()));
    }
    o.set("steps", d.steps().stream().map(WorkflowJson::step).toList());
    d.timer().ifPresent(t -> o.set("timer", new JsonObject().put("dueAt", time(t.dueAt()))));
    d.storeWait().ifPresent(w -> o.set("wait", storeWait(w)));
    return o;
  }

  private static JsonObject step(StepRecord s) {
    JsonObject o =
        new JsonObject()
            .put("position", s.position())
            .put("key", s.key())
            .put("kind", s.kind().code())
            .put("recordedAt", time(s.recordedAt()));
    StepOutcome out = s.outcome();
    if (out instanceof StepOutcome.Value v) {
      o.put("outcome", "value").put("value", v.payload());
    } else if (out instanceof StepOutcome.Failed f) {
      o.put("outcome", "failed").put("attempts", f.attempts()).set("failure", failure(f.failure()));
    } else if (out instanceof StepOutcome.Retrying r) {
      o.put("outcome", "retrying")
          .put("attempts", r.failedAttempts())
          .put("retryAt", time(r.retryAt()))
          .set("failure", failure(r.lastFailure()));
    } else if (out instanceof StepOutcome.Sleep z) {
      o.put("outcome", "sleep").put("wakeAt", time(z.wakeAt()));
    } else if (out instanceof StepOutcome.Snapshot n) {
      o.put("outcome", "snapshot")
          .put("store", n.store())
          .put("documentId", n.documentId())
          .put("documentVersion", n.version())
          .put("value", n.state());
    }
    return o;
  }

  private static JsonObject failure(FailureRecord f) {
    List<String> frames =
        f.frames().stream()
            .limit(FRAMES)
            .map(fr -> fr.className() + "." + fr.method() + (fr.line() >= 0 ? ":" + fr.line() : ""))
            .toList();
    JsonObject o = new JsonObject().put("className", f.className()).putStrings("frames", frames);
    if (f.message() != null) {
      o.put("message", f.message());
    }
    return o;
  }

  private static JsonObject storeWait(WaiterRecord w) {
    return new JsonObject()
        .put("store", w.store())
        .put("documentId", w.documentId())
        .put("stepKey", w.stepKey())
        .putStrings("paths", w.paths())
        .put("sinceVersion", w.sinceVersion());
  }

  private static String time(long epochMillis) {
    return Instant.ofEpochMilli(epochMillis).toString();
  }
}
