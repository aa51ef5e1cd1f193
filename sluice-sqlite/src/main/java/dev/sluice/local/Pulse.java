/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The {@code notify/pulse} file of a pool. A writer stores a token of the commit it is about to
 * make there, under the gate and before the commit, so a woken waiter that then takes the gate
 * reads at least that commit. Watchers learn of pulses through {@link PulseWatcher}.
 *
 * <p>Writes must happen under the pool's gate.
 */
public final class Pulse {
  /** The pulse file every writer pulses unless it names another; a watcher wakes for any. */
  public static final String FILE = "pulse";

  private static final int WIDTH = 4096;

  private Pulse() {}

  /** The pulse file of a pool directory. */
  public static Path file(PoolDirectory dir) {
    return dir.notifyDir().resolve(FILE);
  }

  /**
   * Writes {@code version}, a token unique to the commit; every watcher of the pool wakes.
   *
   * @throws IOException if the file cannot be written, for example because {@code notify/} was
   *     deleted
   */
  public static void write(PoolDirectory dir, String version) throws IOException {
    write(dir, FILE, version);
  }

  /**
   * Writes {@code version} to the pulse file {@code name} of {@code notify/}, for writers that
   * pulse a file per kind of change (see {@link PulseWatcher#watchFiles}); every watcher of the
   * pool wakes.
   *
   * @param dir the pool
   * @param name the file's name: lower-case letters and dashes, starting with {@code pulse}
   * @param version a token unique to the commit
   * @throws IOException if the file cannot be written
   */
  public static void write(PoolDirectory dir, String name, String version) throws IOException {
    if (!name.matches("pulse[a-z-]*")) {
      throw new IllegalArgumentException(
          "pulse file name '" + name + "': lower-case letters and dashes after 'pulse'");
    }
    byte[] text = version.getBytes(StandardCharsets.US_ASCII);
    if (text.length > WIDTH) {
      throw new IllegalArgumentException("pulse token longer than " + WIDTH + " bytes: " + version);
    }
    // Overwritten in place at a fixed width, never truncated: ext4 flushes a file that was
    // truncated and rewritten when it is closed, which cost tens of milliseconds per pulse.
    byte[] padded = new byte[WIDTH];
    java.util.Arrays.fill(padded, (byte) ' ');
    System.arraycopy(text, 0, padded, 0, text.length);
    Path file = dir.notifyDir().resolve(name);
    if (!java.nio.file.Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      // Created through the pool, which sets the mode past the umask (0660 in a shared pool).
      dir.createFile(file);
    }
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(padded), 0);
    }
  }

  /** Reads the last pulse written, or an empty string if there is none or it is unreadable. */
  public static String read(PoolDirectory dir) {
    try {
      return java.nio.file.Files.readString(file(dir), StandardCharsets.US_ASCII).trim();
    } catch (IOException e) {
      return "";
    }
  }
}
