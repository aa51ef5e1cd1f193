/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.store;

import dev.sluice.gate.internal.ConfigText;
import dev.sluice.local.PoolDirectory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The gate's configuration file, {@code config.properties} in the home: read as UTF-8 text, and
 * replaced whole (written under a temporary name, made durable, renamed into place, the directory
 * made durable), so a reader sees the old file or the new one, never a torn one. Writers hold the
 * home's gate, so two writers never lose each other's change.
 *
 * <p>Immutable and thread-safe; each call blocks for its file I/O.
 */
public final class ConfigFile {
  /** The file's name in the home. */
  public static final String NAME = "config.properties";

  private final PoolDirectory dir;

  ConfigFile(PoolDirectory dir) {
    this.dir = dir;
  }

  /** The file's path. */
  public Path path() {
    return dir.file(NAME);
  }

  /**
   * Reads the file; a missing file sets nothing.
   *
   * @throws IOException if it exists and cannot be read
   */
  public ConfigText read() throws IOException {
    return read(path());
  }

  /**
   * Reads a configuration file without opening its home; a missing file sets nothing.
   *
   * @throws IOException if it exists and cannot be read
   */
  public static ConfigText read(Path file) throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return ConfigText.empty();
    }
    try {
      return ConfigText.parse(
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString());
    } catch (CharacterCodingException e) {
      return ConfigText.unreadable("not UTF-8 text; write it as UTF-8 or remove it");
    }
  }

  /**
   * Replaces the file with {@code text}; call with the gate held.
   *
   * @throws IOException if it cannot be written; the old file is then left as it was
   */
  public void write(ConfigText text) throws IOException {
    Path partial = dir.file(NAME + ".writing");
    // Under the gate: a partial file is what a writer that crashed left.
    Files.deleteIfExists(partial);
    dir.createFile(partial);
    ByteBuffer bytes = ByteBuffer.wrap(text.render().getBytes(StandardCharsets.UTF_8));
    try (FileChannel ch = FileChannel.open(partial, StandardOpenOption.WRITE)) {
      while (bytes.hasRemaining()) {
        ch.write(bytes);
      }
      ch.force(true);
    }
    Files.move(partial, path(), StandardCopyOption.ATOMIC_MOVE);
    try (FileChannel d = FileChannel.open(dir.path(), StandardOpenOption.READ)) {
      d.force(true);
    }
  }
}
