/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This JVM's one watcher of pulse files: a daemon thread that sleeps in the {@link WatchService}
 * (inotify on Linux) until a watched pool's {@code notify/} directory changes, then runs that
 * pool's listener. No timed wake-ups: an idle pool costs nothing.
 *
 * <p>Thread-safe. Listeners run on the watcher thread and must be short.
 */
public final class PulseWatcher {
  private static final PulseWatcher INSTANCE = new PulseWatcher();

  private final Map<WatchKey, Runnable> listeners = new ConcurrentHashMap<>();
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
  public synchronized AutoCloseable watch(PoolDirectory dir, Runnable onPulse) {
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
      listeners.put(key, onPulse);
      return () -> {
        listeners.remove(key);
        key.cancel();
      };
    } catch (IOException e) {
      throw new UncheckedIOException("cannot watch " + dir.notifyDir(), e);
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
      key.pollEvents();
      Runnable listener = listeners.get(key);
      boolean valid = key.reset();
      if (listener != null) {
        try {
          listener.run();
        } catch (RuntimeException e) {
          System.getLogger(PulseWatcher.class.getName())
              .log(System.Logger.Level.WARNING, "pulse listener failed", e);
        }
      }
      if (!valid) {
        listeners.remove(key);
      }
    }
  }
}
