/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;

/**
 * A worker JVM of the throughput measurement: opens the cap, starts its threads, and has each loop
 * admission+release cycles with no work in between, counting them.
 *
 * <p>Arguments: {@code VARIANT LOCATION THREADS CAP} ({@link Variant} name, pool directory or
 * database file, threads in this process, units in the cap). Protocol on stdin/stdout, one line
 * each:
 *
 * <ul>
 *   <li>after opening the cap and a handle per thread: {@code ready};
 *   <li>{@code go}: the threads start cycling (no reply);
 *   <li>{@code mark}: {@code count CYCLES EMPTY_UPDATES BUSY_ERRORS}, totals so far;
 *   <li>{@code stop}: the threads finish their cycle and end, the cap is closed, {@code stopped
 *       CYCLES}, and the process exits.
 * </ul>
 *
 * A thread that fails prints {@code failed MESSAGE} and ends the process with status 2; the end of
 * stdin ends it with status 3.
 */
public final class ThroughputWorker {
  private static volatile boolean stopping;

  private ThroughputWorker() {}

  /**
   * Runs the worker.
   *
   * @param args {@code VARIANT LOCATION THREADS CAP}
   * @throws Exception if the cap cannot be opened or the protocol breaks
   */
  public static void main(String[] args) throws Exception {
    Variant variant = Variant.valueOf(args[0]);
    Path location = Path.of(args[1]);
    int threads = Integer.parseInt(args[2]);
    int cap = Integer.parseInt(args[3]);
    WorkerIo io = new WorkerIo();
    serve(variant.open(location, cap), threads, io);
  }

  /**
   * Runs the protocol above on an open cap: starts the threads, replies {@code ready}, and serves
   * commands until {@code stop} (which exits the JVM) or the end of stdin.
   *
   * @param contender the open cap
   * @param threads how many threads cycle
   * @param io the protocol's lines
   * @throws Exception if the protocol breaks
   */
  static void serve(Contender contender, int threads, WorkerIo io) throws Exception {
    LongAdder cycles = new LongAdder();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      Permits permits = contender.forThread();
      Thread t = new Thread(() -> loop(permits, go, cycles, io), "cycler-" + i);
      workers.add(t);
      t.start();
    }
    io.reply("ready");
    for (String command; (command = io.next()) != null; ) {
      switch (command) {
        case "go" -> go.countDown();
        case "mark" ->
            io.reply(
                "count "
                    + cycles.sum()
                    + " "
                    + contender.emptyUpdates()
                    + " "
                    + contender.busyErrors());
        case "stop" -> {
          stopping = true;
          go.countDown();
          for (Thread t : workers) {
            t.join();
          }
          contender.close();
          io.reply("stopped " + cycles.sum());
          System.exit(0);
        }
        default -> throw new IllegalArgumentException("unknown command: " + command);
      }
    }
    Runtime.getRuntime().halt(3);
  }

  private static void loop(Permits permits, CountDownLatch go, LongAdder cycles, WorkerIo io) {
    try (permits) {
      go.await();
      while (!stopping) {
        permits.cycle();
        cycles.increment();
      }
    } catch (Exception e) {
      e.printStackTrace();
      io.reply("failed " + e);
      Runtime.getRuntime().halt(2);
    }
  }
}
