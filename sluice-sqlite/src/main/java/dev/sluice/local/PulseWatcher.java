/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import dev.sluice.spi.support.Logs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * This JVM's one watcher of pulse files: a daemon thread that sleeps in the {@link WatchService}
 * (inotify on Linux) until a watched pool's {@code notify/} directory changes, then runs that
 * pool's listener. No timed wake-ups: an idle pool costs nothing.
 *
 * <p>Thread-safe. Listeners run on the watcher thread and must be short.
 */
public final class PulseWatcher {
  private static final PulseWatcher INSTANCE = new PulseWatcher();

  /**
   * Which pulse files changed at a wake-up, by file name; with {@code overflowed}, events were lost
   * and any file may have changed.
   *
   * @param files the names of the files that changed
   * @param overflowed whether events were lost
   */
  public record Pulsed(Set<String> files, boolean overflowed) {
    /** Copies the set. */
    public Pulsed {
      files = Set.copyOf(files);
    }

    /** Whether {@code file} may have changed. */
    public boolean mayHave(String file) {
      return overflowed || files.contains(file);
    }
  }

  /** Listeners by key; one directory has one key, however many users in this JVM watch it. */
  private final Map<WatchKey, List<Consumer<Pulsed>>> listeners = new ConcurrentHashMap<>();

  private WatchService service;
  private Thread thread;

  private PulseWatcher() {}

  /** The JVM's watcher. */
  public static PulseWatcher instance() {
    return INSTANCE;
  }

  /**
   * Runs {@code onPulse} whenever the pool's pulse file changes, until the returned registration is
   * closed. The watch is armed when this method returns.
   *
   * @param dir the pool
   * @param onPulse a short action
   * @return the registration
   */
  public AutoCloseable watch(PoolDirectory dir, Runnable onPulse) {
    return watchFiles(dir, pulsed -> onPulse.run());
  }

  /**
   * Like {@link #watch}, telling the listener which pulse files changed: a writer that pulses a
   * file per kind of change ({@link Pulse#write(PoolDirectory, String, String)}) lets a watcher
   * wake only for the kinds it cares about.
   *
   * @param dir the pool
   * @param onPulse a short action
   * @return the registration
   */
  public synchronized AutoCloseable watchFiles(PoolDirectory dir, Consumer<Pulsed> onPulse) {
    try {
      if (service == null) {
        service = FileSystems.getDefault().newWatchService();
        WatchService s = service;
        thread = new Thread(() -> loop(s), "sluice-pulse-watcher");
        thread.setDaemon(true);
        thread.start();
      }
      WatchKey key =
          dir.notifyDir()
              .register(
                  service,
                  StandardWatchEventKinds.ENTRY_MODIFY,
                  StandardWatchEventKinds.ENTRY_CREATE);
      listeners.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(onPulse);
      return () -> unwatch(key, onPulse);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot watch " + dir.notifyDir(), e);
    }
  }

  private synchronized void unwatch(WatchKey key, Consumer<Pulsed> onPulse) {
    List<Consumer<Pulsed>> those = listeners.get(key);
    if (those != null && those.remove(onPulse) && those.isEmpty()) {
      listeners.remove(key);
      key.cancel();
    }
    if (listeners.isEmpty() && service != null) {
      // An idle watcher is closed, not kept: its poller thread blocks in native code, and the
      // JVM's exit waits up to 300 ms for such threads, which every short-lived command would pay.
      try {
        service.close();
      } catch (IOException e) {
        // Closing is best effort; the thread ends with the JVM anyway.
      }
      service = null;
      thread = null;
    }
  }

  private void loop(WatchService s) {
    while (true) {
      WatchKey key;
      try {
        key = s.take();
      } catch (InterruptedException | ClosedWatchServiceException e) {
        return;
      }
      Wakeups.record();
      Pulsed pulsed = pulsed(key.pollEvents());
      List<Consumer<Pulsed>> those = listeners.getOrDefault(key, List.of());
      boolean valid = key.reset();
      for (Consumer<Pulsed> listener : those) {
        try {
          listener.accept(pulsed);
        } catch (RuntimeException e) {
          Logs.of(PulseWatcher.class).warn("a pulse listener failed", e);
        }
      }
      if (!valid) {
        listeners.remove(key);
      }
    }
  }

  private static Pulsed pulsed(List<WatchEvent<?>> events) {
    Set<String> files = new HashSet<>();
    boolean overflowed = false;
    for (WatchEvent<?> e : events) {
      if (e.kind() == StandardWatchEventKinds.OVERFLOW || !(e.context() instanceof Path p)) {
        overflowed = true;
      } else {
        files.add(p.getFileName().toString());
      }
    }
    return new Pulsed(files, overflowed);
  }
}
