/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Says why a file operation failed in words: the JDK's file exceptions often carry only the path
 * ({@code AccessDeniedException: /proc/sluice}), which tells a reader nothing. Stateless and
 * thread-safe; never blocks.
 */
public final class IoReasons {
  private IoReasons() {}

  /**
   * Why {@code e} happened, for a message about {@code subject}: for example {@code permission
   * denied}, {@code read-only file system}, or {@code no such file or directory, although its
   * parent /proc exists: that file system does not allow new entries there}.
   *
   * @param e the failure
   * @param subject the path the operation was about
   */
  public static String why(IOException e, Path subject) {
    if (!(e instanceof FileSystemException f)) {
      return String.valueOf(e.getMessage());
    }
    String file = f.getFile();
    Path path = file == null ? subject : Path.of(file);
    String about = path.equals(subject) ? "" : " (" + path + ")";
    if (e instanceof AccessDeniedException) {
      return "permission denied" + about;
    }
    if (e instanceof NotDirectoryException) {
      return path + " is not a directory";
    }
    if (e instanceof NoSuchFileException) {
      Path parent = path.getParent();
      if (parent != null && java.nio.file.Files.isDirectory(parent)) {
        return "no such file or directory"
            + about
            + ", although its parent "
            + parent
            + " exists: that file system does not allow new entries there";
      }
      return "no such file or directory" + about;
    }
    String reason = f.getReason();
    if (reason != null && !reason.isBlank()) {
      return reason.toLowerCase(Locale.ROOT) + about;
    }
    return e.getClass().getSimpleName() + about;
  }
}
