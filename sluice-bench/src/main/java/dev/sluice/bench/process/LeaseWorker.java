/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import dev.sluice.Limiter;
import java.nio.file.Path;

/**
 * A worker JVM that holds or waits for units on command, for the wake-latency and crash-reclaim
 * measurements. Times are wall-clock microseconds ({@link WallClock}), comparable between processes
 * on the machine.
 *
 * <p>Arguments: {@code VARIANT LOCATION CAP}. Protocol on stdin/stdout, one line each, commands
 * handled in order on one thread:
 *
 * <ul>
 *   <li>after opening the cap: {@code ready};
 *   <li>{@code acquire W}: blocks until W units are held, then {@code acquired MICROS}, the time
 *       the acquire returned;
 *   <li>{@code waiters N} (Sluice only): polls {@link Limiter#inspect()} every millisecond until at
 *       least N requests wait in the pool, then {@code waiters COUNT};
 *   <li>{@code release}: reads the time, releases, reads the time again, then {@code released
 *       BEFORE AFTER}: the times just before the release and when it returned;
 *   <li>{@code exit}: releases anything held, closes the cap, {@code bye}, and exits.
 * </ul>
 *
 * The end of stdin ends the process with status 3; a failure prints {@code failed MESSAGE} and ends
 * it with status 2.
 */
public final class LeaseWorker {
  private LeaseWorker() {}

  /**
   * Runs the worker.
   *
   * @param args {@code VARIANT LOCATION CAP}
   * @throws Exception if the protocol breaks
   */
  public static void main(String[] args) throws Exception {
    WorkerIo io = new WorkerIo();
    try {
      serve(Variant.valueOf(args[0]), Path.of(args[1]), Integer.parseInt(args[2]), io);
    } catch (Exception e) {
      e.printStackTrace();
      io.reply("failed " + e);
      Runtime.getRuntime().halt(2);
    }
  }

  private static void serve(Variant variant, Path location, int cap, WorkerIo io) throws Exception {
    serve(variant.open(location, cap), io);
  }

  /**
   * Runs the protocol above on an open cap, from {@code ready} on, until {@code exit} (which exits
   * the JVM) or the end of stdin.
   *
   * @param contender the open cap; {@code waiters} needs a {@link SluiceContender}
   * @param io the protocol's lines
   * @throws Exception if the protocol breaks
   */
  static void serve(Contender contender, WorkerIo io) throws Exception {
    Permits permits = contender.forThread();
    io.reply("ready");
    for (String line; (line = io.next()) != null; ) {
      String[] command = line.split(" ");
      switch (command[0]) {
        case "acquire" -> {
          permits.acquire(Integer.parseInt(command[1]));
          long admitted = WallClock.micros();
          io.reply("acquired " + admitted);
        }
        case "release" -> {
          long releasing = WallClock.micros();
          permits.release();
          long released = WallClock.micros();
          io.reply("released " + releasing + " " + released);
        }
        case "waiters" -> {
          Limiter limiter = ((SluiceContender) contender).limiter();
          int wanted = Integer.parseInt(command[1]);
          int waiting;
          while ((waiting = limiter.inspect().waiters().size()) < wanted) {
            Thread.sleep(1);
          }
          io.reply("waiters " + waiting);
        }
        case "exit" -> {
          permits.close();
          contender.close();
          io.reply("bye");
          System.exit(0);
        }
        default -> throw new IllegalArgumentException("unknown command: " + line);
      }
    }
    Runtime.getRuntime().halt(3);
  }
}
