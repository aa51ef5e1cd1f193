/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One owner of a pool in this JVM: it holds {@code owners/<id>.lock} and listens on {@code
 * owners/<id>.sock} for its whole life. Other processes connect to the socket and learn of the
 * owner's death from its end-of-file; the lock proves the death, because the kernel drops it only
 * when the process is gone.
 *
 * <p>Thread-safe.
 */
public final class Owner implements AutoCloseable {
  private static final Set<String> LOCAL = ConcurrentHashMap.newKeySet();
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final java.util.regex.Pattern ID = java.util.regex.Pattern.compile("[0-9a-f]{12}");

  private final String id;
  private final Path lockFile;
  private final Path socketFile;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private final ServerSocketChannel server;

  private Owner(
      String id,
      Path lockFile,
      Path socketFile,
      FileChannel lockChannel,
      FileLock lock,
      ServerSocketChannel server) {
    this.id = id;
    this.lockFile = lockFile;
    this.socketFile = socketFile;
    this.lockChannel = lockChannel;
    this.lock = lock;
    this.server = server;
  }

  /**
   * Registers a new owner of the pool: a fresh id, its lock held, its socket listening.
   *
   * @param dir the pool
   * @return the owner
   * @throws IOException if the files cannot be created
   */
  public static Owner create(PoolDirectory dir) throws IOException {
    byte[] raw = new byte[6];
    RANDOM.nextBytes(raw);
    String id = HexFormat.of().formatHex(raw);
    Path lockFile = dir.ownersDir().resolve(id + ".lock");
    Path socketFile = dir.ownersDir().resolve(id + ".sock");
    dir.createFile(lockFile);
    FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.WRITE);
    FileLock lock = ch.tryLock();
    if (lock == null) {
      ch.close();
      throw new IOException("owner lock " + lockFile + " is held by another process");
    }
    ServerSocketChannel server;
    try {
      server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      server.bind(UnixDomainSocketAddress.of(socketFile));
    } catch (IOException | RuntimeException e) {
      lock.release();
      ch.close();
      Files.deleteIfExists(lockFile);
      throw new IOException(
          "cannot listen on owner socket "
              + socketFile
              + " ("
              + socketFile.toString().length()
              + " characters; Unix sockets allow about 107): "
              + e.getMessage(),
          e);
    }
    LOCAL.add(id);
    Owner owner = new Owner(id, lockFile, socketFile, ch, lock, server);
    LivenessWatcher.instance().serve(server);
    return owner;
  }

  /** This owner's id. */
  public String id() {
    return id;
  }

  /** Whether {@code ownerId} is an owner of this JVM that is still open. */
  public static boolean isLocal(String ownerId) {
    return LOCAL.contains(ownerId);
  }

  /**
   * Proves an owner dead: its lock can be taken, or its lock file is gone, or the id is not one an
   * owner could have (it is then never used as a file name). Call under the gate, so no owner is
   * being created or retired meanwhile. Never blocks.
   *
   * @param dir the pool
   * @param ownerId the owner
   * @return true if the owner is dead; its files are then removed
   */
  public static boolean provenDead(PoolDirectory dir, String ownerId) {
    if (isLocal(ownerId)) {
      return false;
    }
    if (!ID.matcher(ownerId).matches()) {
      // Not an id this class ever made (a damaged store): no owner can hold it, and it must never
      // become a path outside owners/.
      return true;
    }
    Path lockFile = dir.ownersDir().resolve(ownerId + ".lock");
    try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
      FileLock probe = ch.tryLock();
      if (probe == null) {
        return false;
      }
      probe.release();
    } catch (java.nio.file.NoSuchFileException gone) {
      // Retired or already reclaimed: nothing holds it.
    } catch (java.nio.channels.OverlappingFileLockException ours) {
      return false;
    } catch (IOException e) {
      return false;
    }
    deleteQuietly(lockFile);
    deleteQuietly(dir.ownersDir().resolve(ownerId + ".sock"));
    return true;
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      // A leftover file of a dead owner is harmless: its lock is free.
    }
  }

  /** Retires the owner: closes its socket (its watchers see end-of-file) and frees its lock. */
  @Override
  public void close() {
    LOCAL.remove(id);
    try {
      server.close();
    } catch (IOException e) {
      // Closing is best effort; the process exit closes it too.
    }
    LivenessWatcher.instance().retire(server);
    deleteQuietly(socketFile);
    deleteQuietly(lockFile);
    try {
      lock.release();
      lockChannel.close();
    } catch (IOException e) {
      // As above.
    }
  }
}
