/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Everything a refusal must leave as it was in a directory tree: each entry's name and mode, and
 * for each file its size, content hash and modification time. Two snapshots compare equal only if
 * nothing of that changed; the difference reads as a list of entries.
 *
 * <p>Immutable and thread-safe; {@link #of} reads the tree once.
 */
public final class DirectorySnapshot {
  private final Map<String, String> entries;

  private DirectorySnapshot(Map<String, String> entries) {
    this.entries = entries;
  }

  /**
   * Reads the tree under {@code root} (not following links).
   *
   * @param root the directory
   * @return its snapshot
   */
  public static DirectorySnapshot of(Path root) {
    Map<String, String> entries = new TreeMap<>();
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.toList()) {
        entries.put(root.relativize(p).toString(), describe(p));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + root, e);
    }
    return new DirectorySnapshot(entries);
  }

  private static String describe(Path p) throws IOException {
    String mode =
        PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
      return "dir " + mode;
    }
    return "file "
        + mode
        + " "
        + Files.size(p)
        + " bytes, sha256 "
        + sha256(Files.readAllBytes(p))
        + ", modified "
        + Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toInstant();
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DirectorySnapshot other && entries.equals(other.entries);
  }

  @Override
  public int hashCode() {
    return entries.hashCode();
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    entries.forEach(
        (name, what) ->
            out.append(name.isEmpty() ? "." : name).append(": ").append(what).append('\n'));
    return out.toString();
  }
}
