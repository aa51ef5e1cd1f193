/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.gate.Job;
import dev.sluice.gate.SubmittedJobs;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Copies a job's log to an output, and with following, everything appended to it until the job
 * ends. Two daemon threads wake the copier: one sleeps in a {@link WatchService} (inotify on Linux)
 * on the log's directory and reports changes of the log, the other sleeps in the gate until the job
 * has ended ({@link SubmittedJobs#await}). The copier reads what is new after each wake, and after
 * the end once more: the end is recorded only after the command exited, so that last read has all
 * it wrote. No timed wake-ups.
 *
 * <p>Not thread-safe: one per invocation; {@link #run} blocks while following.
 */
final class LogFollow {
  private static final Duration FOREVER = Duration.ofDays(3650);

  private final SubmittedJobs jobs;
  private final Job job;
  private final OutputStream out;
  private final Semaphore wake = new Semaphore(0);
  private final AtomicReference<Object> ended = new AtomicReference<>();

  LogFollow(SubmittedJobs jobs, Job job, OutputStream out) {
    this.jobs = jobs;
    this.job = job;
    this.out = out;
  }

  /**
   * Copies the log; with {@code follow}, until the job has ended.
   *
   * @throws IOException if the log cannot be read or the output written
   */
  void run(boolean follow) throws IOException, InterruptedException {
    Path log = job.log();
    if (!follow) {
      try (FileChannel ch = FileChannel.open(log, StandardOpenOption.READ)) {
        copy(ch, 0);
      }
      return;
    }
    try (WatchService watch = log.getFileSystem().newWatchService();
        FileChannel ch = FileChannel.open(log, StandardOpenOption.READ)) {
      // Armed before the first read: nothing appended after it goes unseen.
      log.getParent().register(watch, StandardWatchEventKinds.ENTRY_MODIFY);
      daemon("sluice-log-watch", () -> watchChanges(watch, log.getFileName()));
      daemon("sluice-job-end", this::awaitEnd);
      long position = 0;
      while (true) {
        Object end = ended.get();
        position = copy(ch, position);
        if (end instanceof RuntimeException e) {
          throw e;
        }
        if (end != null) {
          return;
        }
        wake.acquire();
        wake.drainPermits();
      }
    }
  }

  private void watchChanges(WatchService watch, Path name) {
    try {
      while (true) {
        WatchKey key = watch.take();
        for (WatchEvent<?> e : key.pollEvents()) {
          if (e.kind() == StandardWatchEventKinds.OVERFLOW || name.equals(e.context())) {
            wake.release();
          }
        }
        key.reset();
      }
    } catch (InterruptedException | ClosedWatchServiceException e) {
      // The follow is over.
    }
  }

  private void awaitEnd() {
    try {
      jobs.await(job.requestId(), FOREVER);
      ended.set(Boolean.TRUE);
    } catch (RuntimeException e) {
      ended.set(e);
    } catch (InterruptedException e) {
      ended.set(new IllegalStateException("interrupted while waiting for " + job.requestId(), e));
    }
    wake.release();
  }

  /** Copies what the log holds past {@code position}; returns the new position. */
  private long copy(FileChannel ch, long position) throws IOException {
    WritableByteChannel to = Channels.newChannel(out);
    long size = ch.size();
    while (position < size) {
      position += ch.transferTo(position, size - position, to);
    }
    out.flush();
    return position;
  }

  private static void daemon(String name, Runnable r) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    t.start();
  }
}
