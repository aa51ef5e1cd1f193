/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.Admission;
import dev.sluice.BackendFailureException;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterEvent;
import dev.sluice.LimiterOptions;
import dev.sluice.OwnerLostException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A JVM on a PostgreSQL pool for the chaos tests: {@code URL SCHEMA POOL CAP THREADS HEARTBEAT_MS
 * WORK_MICROS OUT}. Its threads cycle weight-1 permits (acquire, work, release) until told to stop;
 * a caller that fails with a transient {@link BackendFailureException} or an {@link
 * OwnerLostException} counts it and asks again, anything else ends the JVM with status 2.
 *
 * <p>It answers commands on stdin, one a line, on stdout:
 *
 * <ul>
 *   <li>{@code progress N}: {@code PROGRESS} once N more tasks have ended;
 *   <li>{@code hold}: takes one more permit on a thread of its own and keeps it: {@code HELD <lease
 *       id> <token> <owner>};
 *   <li>{@code again}: closes the held permit, takes one, answers {@code AGAIN <lease id> <token>
 *       <owner>} and closes it;
 *   <li>{@code stop}: the threads end, one line per task (lease id, token, start and end in epoch
 *       microseconds) goes to OUT, then {@code STATS <tasks> <transient failures> <owner lost>
 *       <OWNER_LOST events>} and the JVM exits 0.
 * </ul>
 */
public final class PgCycleWorker {
  private final Limiter limiter;
  private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
  private final List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger transientFailures = new AtomicInteger();
  private final AtomicInteger ownerLost = new AtomicInteger();
  private final AtomicInteger ownerLostEvents = new AtomicInteger();
  private final Object progress = new Object();
  private final long workNanos;
  private volatile boolean stopping;

  private PgCycleWorker(Limiter limiter, long workMicros) {
    this.limiter = limiter;
    this.workNanos = workMicros * 1_000;
  }

  public static void main(String[] args) throws Exception {
    HikariConfig hikari = new HikariConfig();
    hikari.setJdbcUrl(args[0]);
    hikari.setMaximumPoolSize(4);
    HikariDataSource ds = new HikariDataSource(hikari);
    PostgresStore store =
        PostgresStore.builder(ds, args[2])
            .schema(args[1])
            .heartbeatTimeout(Duration.ofMillis(Long.parseLong(args[5])))
            .build();
    AtomicInteger lostEvents = new AtomicInteger();
    Limiter limiter =
        Limiter.open(
            store,
            PgWorker.config(Long.parseLong(args[3])),
            LimiterOptions.builder()
                .listener(
                    e -> {
                      if (e.kind() == LimiterEvent.Kind.OWNER_LOST) {
                        lostEvents.incrementAndGet();
                      }
                    })
                .build());
    PgCycleWorker w = new PgCycleWorker(limiter, Long.parseLong(args[6]));
    w.run(Integer.parseInt(args[4]), Path.of(args[7]), lostEvents);
    limiter.close();
    ds.close();
    System.exit(w.failures.isEmpty() ? 0 : 2);
  }

  private void run(int threads, Path out, AtomicInteger lostEvents) throws Exception {
    CountDownLatch done = new CountDownLatch(threads);
    for (int t = 0; t < threads; t++) {
      Thread thread = new Thread(() -> cycle(done), "cycle-" + t);
      thread.start();
    }
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    Lease held = null;
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] cmd = line.split(" ");
      switch (cmd[0]) {
        case "progress" -> awaitProgress(Long.parseLong(cmd[1]));
        case "hold" -> {
          held = limiter.acquire(1);
          say("HELD " + describe(held.admission()));
        }
        case "again" -> {
          held.close();
          try (Lease again = limiter.acquire(1)) {
            say("AGAIN " + describe(again.admission()));
          }
        }
        case "stop" -> {
          stopping = true;
          done.await();
          try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out))) {
            lines.forEach(w::println);
          }
          if (!failures.isEmpty()) {
            failures.get(0).printStackTrace();
          }
          say(
              "STATS "
                  + lines.size()
                  + " "
                  + transientFailures.get()
                  + " "
                  + ownerLost.get()
                  + " "
                  + lostEvents.get());
          return;
        }
        default -> throw new IllegalArgumentException("unknown command " + line);
      }
    }
  }

  private void cycle(CountDownLatch done) {
    try {
      while (!stopping) {
        try (Lease lease = limiter.acquire(1)) {
          long start = micros();
          long until = System.nanoTime() + workNanos;
          while (System.nanoTime() < until) {
            Thread.onSpinWait();
          }
          Admission a = lease.admission();
          lines.add(a.leaseId() + " " + a.fencingToken() + " " + start + " " + micros());
        } catch (BackendFailureException e) {
          if (e.kind() != BackendFailureException.Kind.TRANSIENT) {
            throw e;
          }
          transientFailures.incrementAndGet();
        } catch (OwnerLostException e) {
          ownerLost.incrementAndGet();
        }
        synchronized (progress) {
          progress.notifyAll();
        }
      }
    } catch (Throwable e) {
      failures.add(e);
    } finally {
      synchronized (progress) {
        progress.notifyAll();
      }
      done.countDown();
    }
  }

  /** Waits until {@code n} more acquires succeeded (or failed: only successes count). */
  private void awaitProgress(long n) throws InterruptedException {
    long target = lines.size() + n;
    synchronized (progress) {
      while (lines.size() < target && failures.isEmpty()) {
        progress.wait();
      }
    }
    say(failures.isEmpty() ? "PROGRESS" : "FAILED " + failures.get(0));
  }

  /** The lease id, token and owner of an admission (the owner as the pool's snapshot names it). */
  private String describe(Admission a) {
    String owner =
        limiter.inspect().leases().stream()
            .filter(l -> l.leaseId() == a.leaseId())
            .map(l -> l.owner())
            .findFirst()
            .orElse("?");
    return a.leaseId() + " " + a.fencingToken() + " " + owner;
  }

  private static synchronized void say(String line) {
    System.out.println(line);
    System.out.flush();
  }

  private static long micros() {
    return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
  }
}
