/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.store;

import dev.sluice.gate.Job;
import dev.sluice.gate.JobEnd;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.internal.GateState;
import dev.sluice.gate.internal.GateViews;
import dev.sluice.gate.internal.JobSettle;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * Keeps the records of submitted jobs in step with their requests, at the end of every transaction:
 * a job whose request was bound to a process group is marked started; a job whose request ended
 * without its runner reporting the command's status is settled ({@link JobSettle}); a job that
 * ended longer ago than {@link dev.sluice.gate.GateSettings#jobLogRetention()} is removed with its
 * log. A job that waits or runs is never removed.
 *
 * <p>Not thread-safe: used under the gate by the transaction's thread.
 */
final class JobSweep {
  private final JobTable jobs;
  private final LivenessCheck liveness;

  JobSweep(JobTable jobs, LivenessCheck liveness) {
    this.jobs = jobs;
    this.liveness = liveness;
  }

  /**
   * Applies everything due at {@code now}.
   *
   * @param removeAfterCommit where the logs of removed jobs are added, to be deleted once the
   *     transaction committed
   * @return whether any job record changed
   */
  boolean run(GateState s, GateViews views, long now, List<Path> removeAfterCommit)
      throws SQLException {
    boolean changed = false;
    for (JobTable.Row row : jobs.open()) {
      Job job = row.job();
      Optional<Ticket> ticket = views.ticket(job.requestId());
      boolean started =
          job.startedAt() != null || ticket.map(t -> t.process() != null).orElse(false);
      if (job.startedAt() == null && started) {
        jobs.started(job.requestId(), now);
        changed = true;
      }
      if (ticket.isPresent() && ticket.get().state().isLive()) {
        continue;
      }
      Optional<JobEnd> end =
          JobSettle.settle(ticket, started, () -> liveness.provenDead(row.runner()));
      if (end.isPresent() && jobs.end(job.requestId(), end.get(), now)) {
        changed = true;
      }
    }
    long cutoff = now - s.settings().jobLogRetention().toMillis();
    for (String id : jobs.endedBy(cutoff)) {
      removeAfterCommit.add(jobs.delete(id));
      changed = true;
    }
    return changed;
  }
}
