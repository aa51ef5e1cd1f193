/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.Admission;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A JVM on a PostgreSQL pool, for the process tests: {@code tasks URL SCHEMA POOL CAP THREADS EACH
 * OUT} runs work under the cap and writes one line per task (lease id, fencing token, start and end
 * in epoch microseconds); {@code hold URL SCHEMA POOL CAP WEIGHT} takes that weight, prints {@code
 * HELD <token>} and waits to be killed.
 */
public final class PgWorker {
  private PgWorker() {}

  static LimiterConfig config(long cap) {
    return LimiterConfig.builder().maxConcurrent(cap).build();
  }

  public static void main(String[] args) throws Exception {
    HikariConfig hikari = new HikariConfig();
    hikari.setJdbcUrl(args[1]);
    hikari.setMaximumPoolSize(4);
    HikariDataSource ds = new HikariDataSource(hikari);
    PostgresStore store = PostgresStore.builder(ds, args[3]).schema(args[2]).build();
    Limiter limiter = Limiter.open(store, config(Long.parseLong(args[4])));
    switch (args[0]) {
      case "tasks" -> tasks(limiter, Integer.parseInt(args[5]), Integer.parseInt(args[6]), args[7]);
      case "hold" -> hold(limiter, Long.parseLong(args[5]));
      default -> throw new IllegalArgumentException("unknown mode " + args[0]);
    }
    limiter.close();
    ds.close();
    System.exit(0);
  }

  private static void tasks(Limiter limiter, int threads, int each, String out) throws Exception {
    List<String> lines = Collections.synchronizedList(new ArrayList<>());
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch done = new CountDownLatch(threads);
    for (int t = 0; t < threads; t++) {
      new Thread(
              () -> {
                try {
                  for (int i = 0; i < each; i++) {
                    try (Lease lease = limiter.acquire(1)) {
                      long start = micros();
                      long spinUntil = System.nanoTime() + 200_000;
                      while (System.nanoTime() < spinUntil) {
                        Thread.onSpinWait();
                      }
                      Admission a = lease.admission();
                      lines.add(
                          a.leaseId() + " " + a.fencingToken() + " " + start + " " + micros());
                    }
                  }
                } catch (Throwable e) {
                  failures.add(e);
                } finally {
                  done.countDown();
                }
              })
          .start();
    }
    done.await();
    if (!failures.isEmpty()) {
      failures.get(0).printStackTrace();
      System.exit(2);
    }
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(Path.of(out)))) {
      lines.forEach(w::println);
    }
  }

  private static void hold(Limiter limiter, long weight) throws Exception {
    Lease lease = limiter.acquire(weight);
    System.out.println("HELD " + lease.admission().fencingToken());
    System.out.flush();
    // Holds until killed: the test ends this JVM with SIGKILL.
    while (System.in.read() != -1) {
      // Input is ignored.
    }
    lease.close();
  }

  private static long micros() {
    return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
  }
}
