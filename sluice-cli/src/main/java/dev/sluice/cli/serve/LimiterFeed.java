/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import dev.sluice.ControlStatus;
import dev.sluice.OwnerLostException;
import dev.sluice.PoolSnapshot;
import dev.sluice.SluiceException;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.JsonObject;
import dev.sluice.cli.LimiterJson;
import dev.sluice.spi.PoolSession;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Follows the console's limiter pools on a daemon thread of its own and hands each changed view to
 * every open {@code /api/limiters/events} stream (event {@code limiters}, the whole list). It
 * sleeps until a pool changes or until the earliest deadline the pools show (a lease's expiry, a
 * queue deadline, the next refill, the end of a cooldown or of an open circuit), when a read
 * applies what fell due. A SQLite pool's changes are seen in a {@link WatchService} on its
 * directory (inotify on Linux: every commit of any process writes the pool's {@code state.db} or
 * its write-ahead log), on a second daemon thread; any other store's through {@link
 * PoolSession#watch} (PostgreSQL: the NOTIFY of every commit that changed the pool, sent while the
 * console watches), on a {@link PoolWatch} that watches again as a new owner if the store declared
 * the watching one dead. It never wakes on a timer of its own but for a read at least every {@value
 * #SAFETY_MINUTES} minute, which only bounds how stale the view could get if a change ever went
 * unannounced. A view is sent only when it differs from the last.
 *
 * <p>Thread-safe: request threads subscribe, take from their own queue and unsubscribe; only the
 * feed's thread reads the pools after {@link #start}. A subscriber that falls behind is dropped
 * (its stream ends; the page reconnects and starts again from the whole view).
 */
final class LimiterFeed implements AutoCloseable {
  static final long SAFETY_MINUTES = 1;
  private static final int BACKLOG = 64;

  private final List<LimiterPool> pools;
  private final Object lock = new Object();
  private final Set<BlockingQueue<String>> subscribers = new HashSet<>();
  private final WatchService watch;
  private final BlockingQueue<Boolean> wakes = new ArrayBlockingQueue<>(1);
  private volatile boolean closed;
  private String latest;
  private List<JsonObject> views = List.of();

  LimiterFeed(List<LimiterPool> pools) {
    this.pools = List.copyOf(pools);
    try {
      this.watch = FileSystems.getDefault().newWatchService();
      for (LimiterPool p : this.pools) {
        if (p.dir().isPresent()) {
          p.dir()
              .get()
              .register(
                  watch,
                  StandardWatchEventKinds.ENTRY_MODIFY,
                  StandardWatchEventKinds.ENTRY_CREATE);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot watch the limiter pool directories", e);
    }
  }

  /** The pools, in the order given. */
  List<LimiterPool> pools() {
    return pools;
  }

  /** Reads every pool once (so the first view is ready), then follows them on a thread. */
  void start() {
    for (LimiterPool p : pools) {
      if (p.watch().isPresent() && !p.watch().get().start(this::wake)) {
        throw new IllegalStateException(p.key() + ": its store cannot tell when the pool changes");
      }
    }
    Instant next = publish();
    if (pools.isEmpty()) {
      return;
    }
    daemon("sluice-serve-limiters", () -> follow(next));
    if (pools.stream().anyMatch(p -> p.dir().isPresent())) {
      daemon("sluice-serve-limiter-files", this::watchFiles);
    }
  }

  private static void daemon(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
  }

  /** Asks for a read soon: a pool changed (or the console changed one). Never blocks. */
  void wake() {
    wakes.offer(Boolean.TRUE);
  }

  /** The latest view: {@code {"pools": [...]}}. */
  JsonObject view() {
    synchronized (lock) {
      return GateJson.object().set("pools", List.copyOf(views));
    }
  }

  /** A new stream's queue, holding the whole current view. */
  BlockingQueue<String> subscribe() {
    BlockingQueue<String> q = new ArrayBlockingQueue<>(BACKLOG);
    synchronized (lock) {
      if (latest != null) {
        q.add(latest);
      }
      subscribers.add(q);
    }
    return q;
  }

  /** Forgets a stream. */
  void unsubscribe(BlockingQueue<String> q) {
    synchronized (lock) {
      subscribers.remove(q);
    }
  }

  private void follow(Instant first) {
    Instant next = first;
    try {
      while (!closed) {
        long waitMillis = Math.max(1, Duration.between(Instant.now(), next).toMillis());
        boolean woken = wakes.poll(waitMillis, TimeUnit.MILLISECONDS) != null;
        if (!closed && (woken || !Instant.now().isBefore(next))) {
          next = publish();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Turns writes of the SQLite pools' databases into wakes, until the server closes. */
  private void watchFiles() {
    try {
      while (true) {
        if (committed(watch.take())) {
          wake();
        }
      }
    } catch (InterruptedException | ClosedWatchServiceException e) {
      // The server closed: the view stops.
    }
  }

  /** Whether a key's events include a write of the pool's database (not its shared memory). */
  private static boolean committed(WatchKey key) {
    boolean wrote = false;
    for (WatchEvent<?> e : key.pollEvents()) {
      Object name = e.context();
      if (e.kind() == StandardWatchEventKinds.OVERFLOW
          || (name instanceof Path p
              && p.toString().startsWith("state.db")
              && !p.toString().endsWith("-shm"))) {
        wrote = true;
      }
    }
    key.reset();
    return wrote;
  }

  /** Reads every pool, sends the view if it changed, and answers when to read next. */
  private Instant publish() {
    List<JsonObject> read = new ArrayList<>();
    Instant now = Instant.now();
    Instant next = now.plus(Duration.ofMinutes(SAFETY_MINUTES));
    for (LimiterPool p : pools) {
      JsonObject json = LimiterJson.pool(p.describe(), p.limiter().config());
      json.put("name", p.name()).put("key", p.key());
      try {
        PoolSnapshot s =
            p.watch().isPresent() ? p.watch().get().inspect() : read(p.limiter()::inspect);
        ControlStatus c = read(() -> p.limiter().maintenance().status());
        LimiterJson.shared(LimiterJson.control(json, c), s);
        next = earliest(next, s.takenAt(), deadlines(s, c));
      } catch (SluiceException e) {
        json.put("failure", String.valueOf(e.getMessage()));
      }
      read.add(json);
    }
    String message = "event: limiters\ndata: " + GateJson.object().set("pools", read) + "\n\n";
    synchronized (lock) {
      if (!message.equals(latest)) {
        latest = message;
        views = read;
        subscribers.removeIf(q -> !q.offer(message) && ended(q));
      }
    }
    return next;
  }

  /**
   * Reads through a limiter. If the store declared the limiter's owner dead (the console was paused
   * longer than the heartbeat timeout, say), the read that learns of it fails and the limiter goes
   * on as a new owner: that read is made again, so the view shows the pool rather than the loss.
   */
  private static <T> T read(Supplier<T> read) {
    try {
      return read.get();
    } catch (OwnerLostException e) {
      return read.get();
    }
  }

  private static boolean ended(BlockingQueue<String> q) {
    q.clear();
    q.offer(Hub.END);
    return true;
  }

  /** Every time at which the pool's state changes by itself. */
  private static Stream<Instant> deadlines(PoolSnapshot s, ControlStatus c) {
    return Stream.of(
            s.leases().stream().map(PoolSnapshot.LeaseInfo::expiresAt),
            s.waiters().stream().map(PoolSnapshot.WaiterInfo::queueDeadline),
            Stream.of(s.nextRefill(), c.cooldownUntil(), c.circuitOpenUntil()))
        .flatMap(x -> x)
        .flatMap(Optional::stream);
  }

  /** The earliest of {@code next} and each deadline after {@code takenAt}, in local time. */
  private static Instant earliest(Instant next, Instant takenAt, Stream<Instant> deadlines) {
    // Deadlines are in store time (the server's clock for PostgreSQL): only their distance from
    // takenAt is used. A deadline already past is applied by the next read.
    Instant local = Instant.now();
    Instant result = next;
    for (Instant d : (Iterable<Instant>) deadlines::iterator) {
      if (!d.isAfter(takenAt)) {
        continue;
      }
      Instant at = local.plus(Duration.between(takenAt, d)).plusMillis(1);
      if (at.isBefore(result)) {
        result = at;
      }
    }
    return result;
  }

  /** Stops following and ends every stream. */
  @Override
  public void close() {
    closed = true;
    wake();
    try {
      watch.close();
    } catch (IOException e) {
      // Closing is best effort; the thread ends with the JVM anyway.
    }
    synchronized (lock) {
      for (BlockingQueue<String> q : subscribers) {
        ended(q);
      }
      subscribers.clear();
    }
  }
}
