/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.local.OwnerWatches;
import dev.sluice.local.PoolDirectory;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dying owner's socket reaches end-of-file a moment before its lock is freed. The owner here is
 * played by hand: its lock file is locked by this JVM (so the proof fails, as it would while the
 * other process still holds it) and its socket is a server this test accepts on and closes.
 */
class OwnerWatchesTest {
  private static final String OWNER = "0123456789ab";

  @TempDir Path root;
  private PoolDirectory dir;
  private final BlockingQueue<String> suspects = new LinkedBlockingQueue<>();

  @BeforeEach
  void openPool() throws Exception {
    dir = PoolDirectory.open(root.resolve("p"));
    dir.createLayout();
  }

  @Test
  void aSuspectWhoseLockIsStillHeldIsSuspectedAgainUntilItsDeathIsProven() throws Exception {
    try (OwnerLock owner = holdOwnerLock();
        OwnerWatches watches = new OwnerWatches(dir, suspects::add)) {
      try (ServerSocketChannel server = listen()) {
        assertThat(watches.check(OWNER)).as("alive: lock held").isFalse();
        watches.watch(OWNER);
        server.accept().close();
      }
      Files.delete(dir.ownersDir().resolve(OWNER + ".sock"));
      assertThat(suspects.poll(30, TimeUnit.SECONDS)).as("end-of-file").isEqualTo(OWNER);

      assertThat(watches.check(OWNER)).as("the lock is not free yet").isFalse();
      assertThat(suspects.poll(30, TimeUnit.SECONDS))
          .as("suspected again after the failed proof")
          .isEqualTo(OWNER);
      assertThat(watches.check(OWNER)).isFalse();
      assertThat(suspects.poll(30, TimeUnit.SECONDS)).as("and again").isEqualTo(OWNER);

      owner.lock().release();
      assertThat(watches.check(OWNER)).as("the lock is free now").isTrue();
      assertThat(owner.file()).doesNotExist();
    }
  }

  @Test
  void aSuspectThatTakesTheNextConnectionIsWatchedAgainAndNotSuspected() throws Exception {
    try (OwnerLock owner = holdOwnerLock();
        OwnerWatches watches = new OwnerWatches(dir, suspects::add);
        ServerSocketChannel server = listen()) {
      watches.watch(OWNER);
      server.accept().close();
      assertThat(suspects.poll(30, TimeUnit.SECONDS)).isEqualTo(OWNER);

      assertThat(watches.check(OWNER)).isFalse();
      try (SocketChannel second = server.accept()) {
        assertThat(second.isConnected()).as("the retry connected to the live owner").isTrue();
        assertThat(suspects).as("a live owner is not suspected").isEmpty();
        assertThat(owner.lock().isValid()).isTrue();
      }
      assertThat(suspects.poll(30, TimeUnit.SECONDS))
          .as("its later end-of-file is heard")
          .isEqualTo(OWNER);
    }
  }

  @Test
  void closedWatchesTellNothing() throws Exception {
    try (OwnerLock owner = holdOwnerLock();
        ServerSocketChannel server = listen()) {
      OwnerWatches watches = new OwnerWatches(dir, suspects::add);
      watches.watch(OWNER);
      SocketChannel accepted = server.accept();
      watches.close();
      // The watch's own end closes its connection: the owner side reads end-of-file.
      assertThat(accepted.read(java.nio.ByteBuffer.allocate(1))).isEqualTo(-1);
      accepted.close();
      assertThat(suspects).isEmpty();
      assertThat(owner.lock().isValid()).isTrue();
    }
  }

  /** The owner's lock file, locked as its process would hold it while it lives. */
  private record OwnerLock(Path file, FileChannel channel, FileLock lock) implements AutoCloseable {
    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  private OwnerLock holdOwnerLock() throws IOException {
    Path file = Files.createFile(dir.ownersDir().resolve(OWNER + ".lock"));
    FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE);
    return new OwnerLock(file, channel, channel.lock());
  }

  private ServerSocketChannel listen() throws Exception {
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(dir.ownersDir().resolve(OWNER + ".sock")));
    return server;
  }
}
