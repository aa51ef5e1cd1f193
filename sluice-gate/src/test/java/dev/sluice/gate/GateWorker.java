/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * A separate JVM on a gate home, started by {@link GateProcessTest}; it does what {@code sluice
 * run} does, one stage at a time, and then waits forever for the test to kill it.
 *
 * <ul>
 *   <li>{@code queue <home> <pool> <weight>}: acquires as an owned request, prints {@code QUEUED
 *       <requestId>} or {@code GRANTED <requestId>}, then waits.
 *   <li>{@code claim <home> <pool> <weight>}: waits for a permit, prints {@code CLAIMED
 *       <requestId>}, then waits without starting anything.
 *   <li>{@code launch <home> <pool> <weight>}: waits for a permit, starts {@code setsid sleep 600},
 *       binds the permit to it, prints {@code STARTED <requestId> <pgid>}, then waits.
 * </ul>
 */
public final class GateWorker {
  private GateWorker() {}

  public static void main(String[] args) throws Exception {
    GateService gate = GateService.open(Path.of(args[1]));
    AcquireRequest request =
        new AcquireRequest(
            "worker-" + ProcessHandle.current().pid(),
            "op",
            args[2],
            Integer.parseInt(args[3]),
            args[0],
            "");
    switch (args[0]) {
      case "queue" -> {
        Optional<Permit> permit =
            gate.acquireOwned(
                request,
                Duration.ofHours(1),
                o -> {
                  if (o instanceof AcquireOutcome.Queued q) {
                    say("QUEUED " + q.ticket().requestId());
                  }
                });
        say("GRANTED " + permit.orElseThrow().ticket().requestId());
      }
      case "claim" -> {
        Permit permit = gate.acquireOwned(request, Duration.ofHours(1), o -> {}).orElseThrow();
        say("CLAIMED " + permit.ticket().requestId());
      }
      case "launch" -> {
        Permit permit = gate.acquireOwned(request, Duration.ofHours(1), o -> {}).orElseThrow();
        Process child = new ProcessBuilder("setsid", "sleep", "600").inheritIO().start();
        ProcessRef ref = ProcessRef.sessionLeader(child.pid()).orElseThrow();
        gate.start(permit.permitToken(), ref);
        say("STARTED " + permit.ticket().requestId() + " " + ref.pgid());
      }
      default -> throw new IllegalArgumentException("unknown stage " + args[0]);
    }
    Thread.currentThread().join();
  }

  private static void say(String line) {
    System.out.println(line);
    System.out.flush();
  }
}
