/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import dev.sluice.StoreFormatException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * A pool directory on the local disk: where its files live and who may use them. A private pool is
 * mode 0700 with files 0600; a shared pool belongs to a dedicated group the caller is in, mode 2770
 * with files 0660. Anything else writable by the group or the world, a symlink, or a file in place
 * of the directory is refused with an error naming the path.
 *
 * <p>Immutable and thread-safe.
 */
public final class PoolDirectory {
  private static final Set<PosixFilePermission> PRIVATE_DIR =
      PosixFilePermissions.fromString("rwx------");

  /** What a limiter pool's directory is called in messages. */
  public static final String POOL_DIRECTORY = "pool directory";

  private final Path path;
  private final boolean shared;
  private final String kind;

  private PoolDirectory(Path path, boolean shared, String kind) {
    this.path = path;
    this.shared = shared;
    this.kind = kind;
  }

  /**
   * Opens the directory, creating it (mode 0700) if missing, and checks its ownership and mode.
   * Nothing inside it is created: a store first checks its file ({@link StoreFile#precheck}), so
   * that a refusal leaves the directory as it was, then calls {@link #createLayout()}.
   *
   * @param requested the directory, relative or absolute
   * @return the checked directory, by its real path
   * @throws StoreFormatException if the path is not a usable pool directory
   */
  public static PoolDirectory open(Path requested) {
    return open(requested, POOL_DIRECTORY);
  }

  /**
   * Like {@link #open(Path)}, for a directory that messages call {@code kind} (the job gate's is a
   * {@code gate home}).
   *
   * @param kind what the directory is, as messages name it
   */
  public static PoolDirectory open(Path requested, String kind) {
    Path absolute = requested.toAbsolutePath().normalize();
    String step = "create";
    try {
      if (Files.isSymbolicLink(absolute)) {
        throw refuse(kind, absolute, "is a symbolic link; give the real directory");
      }
      if (!Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
        Path parent = absolute.getParent();
        if (parent != null) {
          Files.createDirectories(parent);
        }
        try {
          Files.createDirectory(absolute, PosixFilePermissions.asFileAttribute(PRIVATE_DIR));
        } catch (FileAlreadyExistsException raced) {
          // Another process created it first; it is checked below like any existing directory.
        }
      }
      step = "open";
      if (!Files.isDirectory(absolute, LinkOption.NOFOLLOW_LINKS)) {
        throw refuse(kind, absolute, "is not a directory");
      }
      Path real = absolute.toRealPath();
      boolean shared = checkMode(kind, real);
      return new PoolDirectory(real, shared, kind);
    } catch (IOException e) {
      throw new StoreFormatException(
          "cannot " + step + " " + kind + " " + absolute + ": " + IoReasons.why(e, absolute), e);
    }
  }

  private static boolean checkMode(String kind, Path dir) throws IOException {
    Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
    int uid = (Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    int gid = (Integer) Files.getAttribute(dir, "unix:gid", LinkOption.NOFOLLOW_LINKS);
    int mode = (Integer) Files.getAttribute(dir, "unix:mode", LinkOption.NOFOLLOW_LINKS);
    if (perms.contains(PosixFilePermission.OTHERS_WRITE)) {
      throw refuse(
          kind, dir, "is writable by everyone (mode " + octal(mode) + "); use 0700 or 2770");
    }
    if (!perms.contains(PosixFilePermission.GROUP_WRITE)) {
      if (uid != ProcessIdentity.uid()) {
        throw refuse(kind, dir, "belongs to another user (uid " + uid + ")");
      }
      return false;
    }
    boolean setgid = (mode & 02000) != 0;
    if (!setgid || !ProcessIdentity.groups().contains(gid)) {
      throw refuse(
          kind,
          dir,
          "is group-writable (mode "
              + octal(mode)
              + ", group "
              + gid
              + ") but is not a shared "
              + kind
              + ": that needs mode 2770 and a group this"
              + " process is in");
    }
    return true;
  }

  private static String octal(int mode) {
    return String.format("%04o", mode & 07777);
  }

  private static StoreFormatException refuse(String kind, Path dir, String why) {
    return new StoreFormatException(kind + " " + dir + " " + why);
  }

  /**
   * Creates the {@code notify/} and {@code owners/} subdirectories if missing.
   *
   * @throws StoreFormatException if one cannot be created or is not a directory
   */
  public void createLayout() {
    try {
      ensureSubdirectory(notifyDir());
      ensureSubdirectory(ownersDir());
    } catch (IOException e) {
      throw new StoreFormatException(
          "cannot prepare " + kind + " " + path + ": " + IoReasons.why(e, path), e);
    }
  }

  private void ensureSubdirectory(Path sub) throws IOException {
    if (Files.isSymbolicLink(sub)) {
      throw refuse(kind, path, "has a symbolic link at " + sub.getFileName());
    }
    if (!Files.exists(sub, LinkOption.NOFOLLOW_LINKS)) {
      try {
        Files.createDirectory(sub, dirAttribute());
        Files.setPosixFilePermissions(sub, dirAttribute().value());
      } catch (FileAlreadyExistsException raced) {
        // Created by another process at the same moment.
      }
    }
    if (!Files.isDirectory(sub, LinkOption.NOFOLLOW_LINKS)) {
      throw refuse(kind, path, "has a non-directory at " + sub.getFileName());
    }
  }

  /** The directory's real path. */
  public Path path() {
    return path;
  }

  /** Whether this is a group-shared pool (files 0660) rather than a private one (files 0600). */
  public boolean shared() {
    return shared;
  }

  /** The directory whose {@code pulse} file writers touch to wake waiters. */
  public Path notifyDir() {
    return path.resolve("notify");
  }

  /** The directory of owner lock files and sockets. */
  public Path ownersDir() {
    return path.resolve("owners");
  }

  /**
   * A subdirectory of this pool for files of its own (the gate's job logs), created with the pool's
   * directory mode if missing.
   *
   * @param name its name, a single path element
   * @throws IOException if it cannot be created
   * @throws StoreFormatException if a symbolic link or a non-directory has its name
   */
  public Path subdirectory(String name) throws IOException {
    Path sub = path.resolve(name);
    if (!sub.getParent().equals(path)) {
      throw new IllegalArgumentException("not a single path element: " + name);
    }
    ensureSubdirectory(sub);
    return sub;
  }

  /** A file in the directory. */
  public Path file(String name) {
    return path.resolve(name);
  }

  /** Permissions for files this pool creates. */
  public FileAttribute<Set<PosixFilePermission>> fileAttribute() {
    return PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString(shared ? "rw-rw----" : "rw-------"));
  }

  private FileAttribute<Set<PosixFilePermission>> dirAttribute() {
    return PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString(shared ? "rwxrwx---" : "rwx------"));
  }

  /** Creates {@code file} with this pool's file mode if it does not exist. */
  public void createFile(Path file) throws IOException {
    try {
      Files.createFile(file, fileAttribute());
      // The creation mode passes through the umask, which may strip the group bits.
      Files.setPosixFilePermissions(file, fileAttribute().value());
    } catch (FileAlreadyExistsException exists) {
      if (Files.isSymbolicLink(file) || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
        throw refuse(
            kind, path, "has something other than a regular file at " + path.relativize(file));
      }
    }
  }

  @Override
  public String toString() {
    return path.toString();
  }
}
