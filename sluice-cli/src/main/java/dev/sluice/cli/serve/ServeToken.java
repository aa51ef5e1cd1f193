/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import dev.sluice.SluiceException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;

/**
 * The console's bearer token: read from its file, or made (32 random bytes, base64url) into a new
 * file that only its owner can read or write (mode 0600). A file that others can read is refused,
 * as ssh refuses a private key: the token would no longer be a secret.
 *
 * <p>Immutable and thread-safe; {@link #load} blocks for a small file read or write.
 */
public final class ServeToken {
  /** The token file's name in the gate's home when {@code --token-file} is not given. */
  public static final String FILE_NAME = "serve.token";

  private static final int SHORTEST = 16;
  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rw-------");

  private final String value;
  private final Path file;

  private ServeToken(String value, Path file) {
    this.value = value;
    this.file = file;
  }

  /**
   * The token in {@code file}, made there first if the file does not exist.
   *
   * @throws SluiceException if the file is readable by others, or holds fewer than 16 characters
   */
  public static ServeToken load(Path file) {
    try {
      if (Files.notExists(file)) {
        create(file);
      }
      Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
      if (!OWNER_ONLY.containsAll(mode)) {
        throw new SluiceException(
            "token file "
                + file
                + " has mode "
                + PosixFilePermissions.toString(mode)
                + "; it must be readable by its owner only: chmod 600 "
                + file);
      }
      String token = Files.readString(file, StandardCharsets.UTF_8).strip();
      if (token.length() < SHORTEST || !token.matches("[\\x21-\\x7e]+")) {
        throw new SluiceException(
            "token file "
                + file
                + " must hold one token of at least "
                + SHORTEST
                + " printable characters without spaces");
      }
      return new ServeToken(token, file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or make token file " + file, e);
    }
  }

  private static void create(Path file) throws IOException {
    byte[] random = new byte[32];
    new SecureRandom().nextBytes(random);
    String token = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    if (file.getParent() != null) {
      Files.createDirectories(file.getParent());
    }
    try {
      // Made with its mode, so it is never readable by others, not even for a moment.
      Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
    } catch (FileAlreadyExistsException e) {
      return; // another serve made it first: use theirs
    }
    Files.writeString(file, token + "\n", StandardCharsets.UTF_8);
  }

  /** The token. */
  public String value() {
    return value;
  }

  /** The file it came from. */
  public Path file() {
    return file;
  }

  /** Whether {@code given} is the token, compared in constant time. */
  public boolean matches(String given) {
    if (given == null) {
      return false;
    }
    return MessageDigest.isEqual(
        value.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
  }
}
