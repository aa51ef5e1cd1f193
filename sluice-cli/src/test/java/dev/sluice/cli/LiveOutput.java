/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Everything a running process has printed on one stream so far (a pseudo-terminal's screen, or a
 * pipe), collected on a thread of its own so that a test can wait for a piece of text to appear
 * without polling. Thread-safe.
 */
final class LiveOutput {
  private final ByteArrayOutputStream seen = new ByteArrayOutputStream();
  private final Thread reader;
  private boolean ended;

  LiveOutput(InputStream in) {
    reader =
        new Thread(
            () -> {
              byte[] buf = new byte[8192];
              try (in) {
                int n;
                while ((n = in.read(buf)) > 0) {
                  synchronized (this) {
                    seen.write(buf, 0, n);
                    notifyAll();
                  }
                }
              } catch (IOException e) {
                // The process is gone; what was read is all there is.
              }
              synchronized (this) {
                ended = true;
                notifyAll();
              }
            },
            "live-output");
    reader.setDaemon(true);
    reader.start();
  }

  synchronized String text() {
    return seen.toString(StandardCharsets.UTF_8);
  }

  /** Waits until {@code needle} has been shown; fails if the output ends or takes too long. */
  void await(String needle) throws InterruptedException {
    awaitCount(needle, 1);
  }

  /**
   * Waits until {@code needle} has been shown at least {@code times} times; fails if the output
   * ends first or it takes longer than {@link SluiceProcesses#TIMEOUT_SECONDS}.
   */
  synchronized void awaitCount(String needle, int times) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SluiceProcesses.TIMEOUT_SECONDS);
    while (count(text(), needle) < times) {
      long left = deadline - System.nanoTime();
      if (ended || left <= 0) {
        throw new AssertionError("never shown " + times + " times: " + needle + "\n" + this);
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  /**
   * Waits until what was shown so far satisfies {@code condition}, tested again after each new
   * piece of output; fails if the output ends first or it takes longer than {@link
   * SluiceProcesses#TIMEOUT_SECONDS}.
   *
   * @param what the condition in words, for the failure
   */
  synchronized void await(Predicate<String> condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SluiceProcesses.TIMEOUT_SECONDS);
    while (!condition.test(text())) {
      long left = deadline - System.nanoTime();
      if (ended || left <= 0) {
        throw new AssertionError("never shown: " + what + "\n" + this);
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  /** How often {@code needle} occurs in {@code text}, without overlaps. */
  static int count(String text, String needle) {
    int n = 0;
    for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length())) {
      n++;
    }
    return n;
  }

  /** Waits until the output has ended (the process exited and closed it). */
  void drained() throws InterruptedException {
    reader.join(TimeUnit.SECONDS.toMillis(SluiceProcesses.TIMEOUT_SECONDS));
  }

  @Override
  public synchronized String toString() {
    List<String> lines = text().lines().toList();
    return "--- output so far (escapes shown as \\e)\n"
        + String.join("\n", lines).replace("\033", "\\e");
  }
}
