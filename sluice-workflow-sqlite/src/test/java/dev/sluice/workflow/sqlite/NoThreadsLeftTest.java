/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM whose limiters and workflow runtimes are all closed keeps no Sluice thread: the shared
 * timer, the pulse watcher, the liveness selector, the pool coordinators and the runtime's workers
 * all end, so the JVM (or a host that waits for threads, such as Maven's {@code exec:java}) exits
 * promptly. Checked in a fresh JVM, where no other test's limiter can keep a thread.
 */
@Timeout(120)
class NoThreadsLeftTest {
  @TempDir Path dir;

  @Test
  void aJvmWithEverythingClosedKeepsNoSluiceThread() throws Exception {
    try (WorkerProcesses workers = new WorkerProcesses()) {
      Process p = workers.startMain(ThreadsLeftMain.class, dir.toString());
      assertThat(workers.line(p)).isEqualTo("woke up");
      assertThat(workers.line(p)).isEqualTo("none");
      assertThat(p.waitFor()).isZero();
    }
  }
}
