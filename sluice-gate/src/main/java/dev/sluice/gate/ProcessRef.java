/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import dev.sluice.gate.internal.ProcTable;
import java.util.Objects;
import java.util.Optional;

/**
 * A process a permit is bound to: its pid, its start time in clock ticks since boot (so a reused
 * pid is not mistaken for it), its process group and its pid namespace. Only a caller in the same
 * pid namespace can judge whether the group still lives.
 *
 * @param pid the process id, positive
 * @param startTicks the process start time ({@code /proc/<pid>/stat} field 22), not negative
 * @param pgid the process group whose end releases the permit, positive
 * @param pidNamespace the pid namespace, for example {@code pid:[4026531836]}
 */
public record ProcessRef(long pid, long startTicks, long pgid, String pidNamespace) {
  /** Validates the fields. */
  public ProcessRef {
    if (pid < 1) {
      throw new IllegalArgumentException("pid must be positive, was " + pid);
    }
    if (startTicks < 0) {
      throw new IllegalArgumentException("startTicks must not be negative, was " + startTicks);
    }
    if (pgid < 1) {
      throw new IllegalArgumentException("pgid must be positive, was " + pgid);
    }
    Objects.requireNonNull(pidNamespace, "pidNamespace");
  }

  /**
   * Describes a live process from Linux {@code /proc}: its start time ({@code /proc/<pid>/stat}
   * field 22), its current process group and its pid namespace ({@code ""} if that cannot be read,
   * as for another user's process). Linux only; elsewhere, or without {@code /proc}, the answer is
   * empty.
   *
   * <p>Thread-safe. A few reads of {@code /proc}; never waits for the process.
   *
   * @param pid a process id in this JVM's pid namespace
   * @return the process, or empty if there is no such live process (none, a zombie, or a thread id
   *     rather than a process id) or {@code /proc} cannot describe it
   */
  public static Optional<ProcessRef> lookup(long pid) {
    return ProcTable.describe(pid);
  }

  /**
   * Describes a child just started through {@code setsid}, which makes it the leader of a new
   * session and process group whose id is its pid. The child may not have called {@code setsid()}
   * yet when this runs, so {@code /proc} could still show its parent's group: the group is taken to
   * be the pid, which it is from the moment {@code setsid()} returns. Until then the exact process
   * (pid and start time) proves it alive.
   *
   * <p>Thread-safe. A few reads of {@code /proc}; never waits for the process.
   *
   * @param pid the child's pid
   * @return the process, or empty if it already ended or {@code /proc} cannot describe it
   */
  public static Optional<ProcessRef> sessionLeader(long pid) {
    return ProcTable.describe(pid)
        .map(p -> new ProcessRef(p.pid(), p.startTicks(), p.pid(), p.pidNamespace()));
  }

  /**
   * Whether this process or any process of its group may still run: true when {@code /proc} shows
   * one running, and also when this JVM cannot tell (another pid namespace), since then it must be
   * assumed to run.
   *
   * <p>Thread-safe. Reads {@code /proc}; never waits for the process.
   */
  public boolean groupMayRun() {
    return ProcTable.liveness(this) != ProcTable.Liveness.DEAD;
  }
}
