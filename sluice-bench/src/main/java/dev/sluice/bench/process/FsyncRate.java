/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The disk's durable-commit ceiling: how many 4 KiB overwrites each followed by an fsync ({@code
 * FileChannel.force(true)}) one thread completes per second in a directory, the cost a {@code
 * synchronous=FULL} commit pays at least once.
 */
final class FsyncRate {
  private FsyncRate() {}

  static double measure(Path dir, double seconds) throws IOException {
    Path file = dir.resolve("fsync-probe");
    ByteBuffer page = ByteBuffer.allocate(4096);
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      long end = System.nanoTime() + (long) (seconds * 1e9);
      long count = 0;
      long start = System.nanoTime();
      while (System.nanoTime() < end) {
        page.clear();
        page.putLong(0, count);
        ch.write(page, 0);
        ch.force(true);
        count++;
      }
      return count / ((System.nanoTime() - start) / 1e9);
    } finally {
      Files.deleteIfExists(file);
    }
  }
}
