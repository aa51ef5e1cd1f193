package dev.sluice.samples.limiterapp;

import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.PoolSnapshot;
import dev.sluice.ScheduleOptions;
import dev.sluice.sqlite.SqliteStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A user's program: six calls through a limiter that lets two run at once, on a SQLite pool in a
 * fresh directory (every process that opened the same directory would share the cap). It prints
 * how many ran at most at once, the fencing tokens they got and where sluice-core was loaded from,
 * and exits 1 if the limiter let more than two run at once.
 */
public final class LimiterApp {
  private static final int CALLS = 6;
  private static final long CAPACITY = 2;

  private LimiterApp() {}

  /**
   * Runs the calls.
   *
   * @param args ignored
   * @throws Exception if a call fails
   */
  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("limiter-app-").resolve("pool");
    LimiterConfig config = LimiterConfig.builder().maxConcurrent(CAPACITY).build();
    AtomicInteger running = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    try (Limiter limiter = Limiter.open(SqliteStore.directory(dir), config)) {
      List<CompletableFuture<Long>> calls = new ArrayList<>();
      for (int i = 0; i < CALLS; i++) {
        calls.add(
            limiter.schedule(
                admission -> {
                  peak.accumulateAndGet(running.incrementAndGet(), Math::max);
                  try {
                    Thread.sleep(50); // the "service" call
                  } finally {
                    running.decrementAndGet();
                  }
                  return admission.fencingToken();
                },
                ScheduleOptions.defaults()));
      }
      List<Long> tokens = new ArrayList<>();
      for (CompletableFuture<Long> call : calls) {
        tokens.add(call.join());
      }
      PoolSnapshot pool = limiter.inspect();
      System.out.println("limiter-app: sluice-core from " + where(Limiter.class));
      System.out.println("limiter-app: fencing tokens " + tokens.stream().sorted().toList());
      System.out.printf(
          "limiter-app: %d calls ran on the SQLite pool with capacity %d, at most %d at once;"
              + " weight held now: %d%n",
          tokens.size(), CAPACITY, peak.get(), pool.activeWeight());
    }
    if (peak.get() > CAPACITY) {
      System.err.println("limiter-app: more calls ran at once than the capacity allows");
      System.exit(1);
    }
  }

  private static String where(Class<?> type) {
    return type.getProtectionDomain().getCodeSource().getLocation().toString();
  }
}
