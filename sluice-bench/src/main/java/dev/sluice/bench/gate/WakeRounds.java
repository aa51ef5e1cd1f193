/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.gate;

import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateService;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Measurement 2: admission wake latency between two {@code sluice run} processes on pool {@link
 * #POOL} of capacity 1. Each round:
 *
 * <ol>
 *   <li>A, {@code sluice run -- sh -c 'read _ < FIFO; date +%s%N > A_END'}, is granted and holds;
 *   <li>B, {@code sluice run -- sh -c 'date +%s%N > B_START'}, starts; the harness waits for B's
 *       {@code queued} event ({@link GateService#awaitEvents}), closes its own gate and waits
 *       {@value #SETTLE_MILLIS} ms so that B is asleep;
 *   <li>the harness writes a line to the FIFO: A's command stamps its end and exits, A's {@code
 *       sluice run} notices, releases, the release offers the unit to B, B wakes, claims, spawns
 *       its command (held back by {@code sluice run} until the permit is bound to it), binds it
 *       ({@code started}) and lets it go: {@code sh -c date}, whose stamp is B's start.
 * </ol>
 *
 * The latency is B's start stamp minus A's end stamp (one machine clock, nanoseconds). The event
 * feed splits it, in millisecond event times, into A's end → A's {@code released}, {@code released}
 * → B's {@code claimed}, {@code claimed} → B's {@code started}, and {@code started} → B's start
 * stamp.
 */
final class WakeRounds {
  /** The pool, of capacity 1. */
  static final String POOL = "wake";

  static final long SETTLE_MILLIS = 50;

  private static final Duration EVENT_WAIT = Duration.ofSeconds(60);

  private WakeRounds() {}

  /**
   * The recorded rounds.
   *
   * @param latency A's end stamp to B's start stamp
   * @param toReleased A's end stamp to A's {@code released} event
   * @param toClaimed A's {@code released} event to B's {@code claimed} event
   * @param toStarted B's {@code claimed} event to B's {@code started} event (spawn, bind)
   * @param toStamp B's {@code started} event to B's start stamp (go signal, exec, date)
   */
  record Outcome(
      Summary latency, Summary toReleased, Summary toClaimed, Summary toStarted, Summary toStamp) {}

  /**
   * Runs the rounds.
   *
   * @param options counts and the sluice script
   * @param runDir the run's directory
   * @param home the gate's home, whose pool {@link #POOL} has capacity 1
   * @return the latencies of the recorded rounds
   * @throws Exception if a round fails
   */
  static Outcome run(BenchOptions options, Path runDir, Path home) throws Exception {
    Path dir = Files.createDirectories(runDir.resolve("wake"));
    Path fifo = dir.resolve("go");
    Commands.run(List.of("mkfifo", fifo.toString()), runDir.resolve("setup.log"));
    List<List<Long>> nanos = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      nanos.add(new ArrayList<>());
    }
    int rounds = options.wakeWarmup() + options.wakeRounds();
    for (int round = 0; round < rounds; round++) {
      long[] r = round(options, home, dir, fifo, round);
      if (round >= options.wakeWarmup()) {
        for (int i = 0; i < r.length; i++) {
          nanos.get(i).add(r[i]);
        }
      }
    }
    return new Outcome(
        Summary.ofNanos(nanos.get(0)),
        Summary.ofNanos(nanos.get(1)),
        Summary.ofNanos(nanos.get(2)),
        Summary.ofNanos(nanos.get(3)),
        Summary.ofNanos(nanos.get(4)));
  }

  /** One round: the latency and its four parts, in nanoseconds. */
  private static long[] round(BenchOptions options, Path home, Path dir, Path fifo, int round)
      throws Exception {
    Path aEnd = dir.resolve("a-end-" + round);
    Path bStart = dir.resolve("b-start-" + round);
    Path logA = dir.resolve("a.log");
    Path logB = dir.resolve("b.log");
    long since;
    String requestA;
    String requestB;
    Process a;
    Process b;
    try (GateService gate = GateService.open(home)) {
      since = last(gate);
      a =
          Commands.start(
              run(options, home, "read _ < \"$1\"; date +%s%N > \"$2\"", fifo, aEnd),
              Map.of(),
              logA);
      GateEvent granted = await(gate, since, "granted");
      requestA = granted.requestId();
      b = Commands.start(run(options, home, "date +%s%N > \"$1\"", bStart), Map.of(), logB);
      requestB = await(gate, granted.sequence(), "queued").requestId();
    }
    Thread.sleep(SETTLE_MILLIS);
    signal(fifo, a);
    Commands.awaitSuccess(a, "A", logA);
    Commands.awaitSuccess(b, "B", logB);
    long end = Long.parseLong(Files.readString(aEnd).trim());
    long start = Long.parseLong(Files.readString(bStart).trim());
    Instant released = null;
    Instant claimed = null;
    Instant started = null;
    try (GateService gate = GateService.open(home)) {
      for (GateEvent e : gate.events(since, 1000)) {
        if (e.requestId().equals(requestA) && e.type().equals("released")) {
          released = e.at();
        } else if (e.requestId().equals(requestB) && e.type().equals("claimed")) {
          claimed = e.at();
        } else if (e.requestId().equals(requestB) && e.type().equals("started")) {
          started = e.at();
        }
      }
    }
    if (released == null || claimed == null || started == null) {
      throw new IOException("round " + round + ": no released, claimed or started event");
    }
    long releasedAt = epochNanos(released);
    long claimedAt = epochNanos(claimed);
    long startedAt = epochNanos(started);
    return new long[] {
      start - end,
      releasedAt - end,
      claimedAt - releasedAt,
      startedAt - claimedAt,
      start - startedAt
    };
  }

  private static List<String> run(BenchOptions options, Path home, String script, Path... args) {
    List<String> argv =
        new ArrayList<>(Commands.sluiceRun(options, home, POOL, "sh", "-c", script, "sh"));
    for (Path arg : args) {
      argv.add(arg.toString());
    }
    return argv;
  }

  /** The sequence number of the newest event. */
  private static long last(GateService gate) {
    long since = 0;
    for (List<GateEvent> page; !(page = gate.events(since, 1000)).isEmpty(); ) {
      since = page.get(page.size() - 1).sequence();
    }
    return since;
  }

  /** Waits for the first event of {@code type} on the pool after {@code since}. */
  private static GateEvent await(GateService gate, long since, String type) throws Exception {
    long deadline = System.nanoTime() + EVENT_WAIT.toNanos();
    while (System.nanoTime() - deadline < 0) {
      List<GateEvent> page = gate.awaitEvents(since, 1000, Duration.ofSeconds(1));
      for (GateEvent e : page) {
        since = e.sequence();
        if (e.pool().equals(POOL) && e.type().equals(type)) {
          return e;
        }
      }
    }
    throw new IOException("no " + type + " event within " + EVENT_WAIT);
  }

  /**
   * Lets A's command go. Opening the FIFO blocks until A's shell opens it for reading, so it
   * happens on a daemon thread that may be abandoned if A died.
   */
  private static void signal(Path fifo, Process a) throws Exception {
    Thread writer =
        new Thread(
            () -> {
              try (OutputStream out = Files.newOutputStream(fifo)) {
                out.write("go\n".getBytes(StandardCharsets.US_ASCII));
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            },
            "fifo-writer");
    writer.setDaemon(true);
    writer.start();
    writer.join(EVENT_WAIT.toMillis());
    if (writer.isAlive()) {
      a.destroyForcibly();
      throw new IOException("A's command never opened the FIFO");
    }
  }

  private static long epochNanos(Instant at) {
    return at.getEpochSecond() * 1_000_000_000L + at.getNano();
  }
}
