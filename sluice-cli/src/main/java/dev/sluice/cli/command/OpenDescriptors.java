/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Names a file this process holds open by its descriptor, {@code /proc/<pid>/fd/<n>}: a path that
 * another process of the same user can open to reach the same file (for a FIFO, the same pipe) for
 * as long as this process holds it, even once its own name is removed. Linux only. Stateless and
 * thread-safe; reads {@code /proc/self/fd}, never blocks otherwise.
 */
final class OpenDescriptors {
  private static final Path SELF_FDS = Path.of("/proc/self/fd");

  private OpenDescriptors() {}

  /**
   * The {@code /proc/<pid>/fd/<n>} path of a descriptor of this process open on {@code file}.
   *
   * @return the path, or empty where {@code /proc} is missing or shows no such descriptor
   */
  static Optional<Path> pathOf(Path file) {
    List<Path> fds;
    Path real;
    try (Stream<Path> list = Files.list(SELF_FDS)) {
      fds = list.toList();
      // The kernel shows the real path: a temporary directory under a symbolic link differs.
      real = file.toRealPath();
    } catch (IOException | UncheckedIOException | SecurityException e) {
      return Optional.empty();
    }
    Path byPid = Path.of("/proc", Long.toString(ProcessHandle.current().pid()), "fd");
    for (Path fd : fds) {
      try {
        if (Files.readSymbolicLink(fd).equals(real)) {
          return Optional.of(byPid.resolve(fd.getFileName().toString()));
        }
      } catch (IOException | UnsupportedOperationException e) {
        // Closed since the listing (another thread's descriptor), or not a link: not ours.
      }
    }
    return Optional.empty();
  }
}
