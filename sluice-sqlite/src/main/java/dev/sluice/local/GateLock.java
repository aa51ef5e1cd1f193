/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The exclusive lock on a pool's {@code gate.lock}, under which every transaction of every process
 * on the pool runs. Within one JVM a lock object orders the threads first, because a JVM may hold a
 * file lock only once. This is the only lock Sluice ever blocks on across processes, so two
 * processes can never wait on each other in a cycle.
 *
 * <p>One instance per pool directory per JVM ({@link #open}), shared by every user in the JVM: the
 * JVM may hold a file lock only through one channel, so a second channel on the same file would
 * fail while the first holds it.
 *
 * <p>Thread-safe. {@link #hold()} blocks until the gate is free.
 */
public final class GateLock implements AutoCloseable {
  private static final java.util.Map<Path, GateLock> OPEN = new java.util.HashMap<>();

  private final Path file;
  private final FileChannel channel;
  private final ReentrantLock local = new ReentrantLock();
  private FileLock held;
  private int users;

  private GateLock(PoolDirectory dir) throws IOException {
    this.file = dir.file("gate.lock");
    dir.createFile(file);
    this.channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
  }

  /**
   * Returns the JVM's gate of {@code dir}, opening its file (created with the pool's file mode) for
   * the first user. Each call must be matched by one {@link #close()}.
   *
   * @param dir the pool directory
   * @return the gate
   * @throws IOException if the file cannot be opened
   */
  public static GateLock open(PoolDirectory dir) throws IOException {
    synchronized (OPEN) {
      GateLock gate = OPEN.get(dir.path());
      if (gate == null) {
        gate = new GateLock(dir);
        OPEN.put(dir.path(), gate);
      }
      gate.users++;
      return gate;
    }
  }

  /**
   * Takes the gate, blocking until every other holder released it.
   *
   * @return the hold, to close when the transaction is over
   */
  public Hold hold() {
    local.lock();
    // An interrupted thread's file lock closes the channel, which the whole JVM shares: lock with
    // the flag cleared and set it again after. (An interrupt that arrives while the lock blocks
    // still closes it; threads that may be interrupted should hand their work to a coordinator.)
    boolean interrupted = Thread.interrupted();
    try {
      held = CrashStages.lockGate(channel, file.getParent());
    } catch (IOException e) {
      local.unlock();
      throw new UncheckedIOException("cannot lock " + file, e);
    } catch (RuntimeException | Error e) {
      local.unlock();
      throw e;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    return this::release;
  }

  /** Whether the calling thread holds the gate. */
  public boolean heldByCurrentThread() {
    return local.isHeldByCurrentThread();
  }

  private void release() {
    try {
      held.release();
    } catch (IOException e) {
      // Closing the channel releases it too; a failed release is reported by the next hold.
    } finally {
      held = null;
      local.unlock();
    }
  }

  /** Leaves the gate; the last user in the JVM closes its file. */
  @Override
  public void close() throws IOException {
    // Closed under the registry's lock, so a new instance for the same file cannot open its
    // channel while this one might still hold the lock.
    synchronized (OPEN) {
      if (--users > 0) {
        return;
      }
      OPEN.remove(file.getParent());
      local.lock();
      try {
        channel.close();
      } finally {
        local.unlock();
      }
    }
  }

  /** A hold on the gate; closing it releases the gate. */
  @FunctionalInterface
  public interface Hold extends AutoCloseable {
    @Override
    void close();
  }
}
