/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.ExitCode;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.JsonObject;
import dev.sluice.gate.Job;
import dev.sluice.gate.JobEnd;
import dev.sluice.gate.Ticket;
import java.time.Instant;
import java.util.Locale;

/**
 * How submitted jobs are answered: as JSON ({@code submit}, {@code wait}, {@code jobs}), as a line
 * of text, and as {@code sluice wait}'s exit status.
 *
 * <p>Stateless and thread-safe; never blocks.
 */
final class JobAnswers {
  private JobAnswers() {}

  /**
   * {@code {"requestId", "state", "pool", "weight", "agentId", "label", "command", "log",
   * "submittedAt", "startedAt"?, "endedAt"?, "exitStatus"?, "reason"?}}: {@code state} is the
   * outcome once ended ({@code exited}, {@code queue_timeout}, {@code cancelled}, {@code
   * not_started}, {@code lost}), else {@code submitted} until {@link #request} tells the request's.
   */
  static JsonObject json(Job j) {
    JsonObject o = GateJson.object().put("requestId", j.requestId());
    o.put("state", j.ended().map(e -> e.outcome().wireName()).orElse("submitted"));
    o.put("pool", j.pool()).put("weight", j.weight()).put("agentId", j.agentId());
    o.put("label", j.label()).putStrings("command", j.command()).put("log", j.log().toString());
    instant(o, "submittedAt", j.submittedAt());
    instant(o, "startedAt", j.startedAt());
    instant(o, "endedAt", j.endedAt());
    j.ended()
        .ifPresent(
            e -> {
              e.exitStatus().ifPresent(s -> o.put("exitStatus", s));
              o.put("reason", e.reason());
            });
    return o;
  }

  /** Adds what the live request of a job that has not ended says: state, phase, position, pid. */
  static void request(JsonObject o, Ticket t) {
    if (!t.state().isLive()) {
      return;
    }
    o.put("state", t.state().name().toLowerCase(Locale.ROOT));
    if (t.phase() != null) {
      o.put("phase", t.phase().name().toLowerCase(Locale.ROOT));
    }
    if (t.position() > 0) {
      o.put("position", t.position());
    }
    t.trackedProcess().ifPresent(p -> o.put("pid", p.pid()));
  }

  /**
   * {@code r12 exited 3}, {@code r12 did not run: ...}, {@code r12 lost: ...}, or still running.
   */
  static String line(Job j) {
    return j.requestId() + " " + j.ended().map(JobAnswers::words).orElse("has not ended");
  }

  /** How a job ended, in words. */
  static String words(JobEnd e) {
    return switch (e.outcome()) {
      case EXITED -> e.reason();
      case QUEUE_TIMEOUT -> "did not run: no slot came within its --queue-timeout";
      case CANCELLED, NOT_STARTED -> "did not run: " + e.reason();
      case LOST -> "lost: " + e.reason();
    };
  }

  /**
   * {@code sluice wait}'s status for a job that ended: its command's own, or one of the gate's that
   * {@code sluice run} also uses for a command that did not run, or {@link ExitCode#JOB_LOST}.
   */
  static int waitStatus(JobEnd e) {
    return switch (e.outcome()) {
      case EXITED -> e.exitStatus().orElseThrow();
      case QUEUE_TIMEOUT -> ExitCode.QUEUE_TIMEOUT.code();
      case CANCELLED, NOT_STARTED -> ExitCode.RUN_FAILED.code();
      case LOST -> ExitCode.JOB_LOST.code();
    };
  }

  private static void instant(JsonObject o, String field, Instant at) {
    if (at != null) {
      o.put(field, at.toString());
    }
  }
}
