/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * This JVM's one selector thread for owner sockets: it accepts connections to this JVM's owners and
 * holds connections to other processes' owners, and reports an owner whose connection reached
 * end-of-file (or could not be made) as suspected dead. The same connections carry nudges: a
 * process that granted a request of another process's owner writes one byte to that owner, whose
 * JVM then looks at once instead of waiting for the pulse file's notification. It sleeps in {@link
 * Selector#select()} until something happens; it never polls.
 *
 * <p>Thread-safe.
 */
public final class LivenessWatcher {
  private static final LivenessWatcher INSTANCE = new LivenessWatcher();

  private final Queue<Runnable> pending = new ConcurrentLinkedQueue<>();
  private final java.util.Map<Path, SocketChannel> connections =
      new java.util.concurrent.ConcurrentHashMap<>();
  private static final ByteBuffer NUDGE = ByteBuffer.wrap(new byte[] {1}).asReadOnlyBuffer();

  /** What a selection key of an accepted connection carries: the owner's nudge action. */
  private record Nudge(Runnable action) {}

  private final java.util.concurrent.atomic.AtomicLong wakeups =
      new java.util.concurrent.atomic.AtomicLong();
  private Selector selector;

  private LivenessWatcher() {}

  /** The JVM's watcher. */
  public static LivenessWatcher instance() {
    return INSTANCE;
  }

  private synchronized Selector selector() throws IOException {
    if (selector == null) {
      selector = Selector.open();
      Selector s = selector;
      Thread t = new Thread(() -> loop(s), "sluice-liveness");
      t.setDaemon(true);
      t.start();
    }
    return selector;
  }

  /**
   * Accepts connections to one of this JVM's owner sockets and holds them open; runs {@code
   * onNudge} on the selector thread when a peer nudges the owner.
   */
  void serve(ServerSocketChannel server, Runnable onNudge) throws IOException {
    server.configureBlocking(false);
    Selector s = selector();
    pending.add(
        () -> {
          try {
            server.register(s, SelectionKey.OP_ACCEPT, new Nudge(onNudge));
          } catch (IOException e) {
            // The owner closed before its socket was registered.
          }
        });
    s.wakeup();
  }

  /**
   * Connects to another process's owner socket and runs {@code onDeath} once if the connection ends
   * or cannot be made.
   *
   * @param socket the owner's {@code owners/<id>.sock}
   * @param onDeath a short action, run on the watcher thread or the calling thread
   */
  public void watch(Path socket, Runnable onDeath) {
    SocketChannel ch;
    try {
      ch = SocketChannel.open(StandardProtocolFamily.UNIX);
      ch.connect(UnixDomainSocketAddress.of(socket));
      ch.configureBlocking(false);
    } catch (IOException e) {
      onDeath.run();
      return;
    }
    connections.put(socket, ch);
    try {
      Selector s = selector();
      pending.add(
          () -> {
            try {
              ch.register(s, SelectionKey.OP_READ, onDeath);
            } catch (IOException e) {
              onDeath.run();
            }
          });
      s.wakeup();
    } catch (IOException e) {
      onDeath.run();
    }
  }

  /** How many times the selector thread woke up; for tests that check an idle pool stays idle. */
  public long wakeups() {
    return wakeups.get();
  }

  /**
   * Nudges the owner listening on {@code socket}, if this JVM is connected to it; never blocks.
   *
   * @return whether a nudge was sent
   */
  public boolean nudge(Path socket) {
    SocketChannel ch = connections.get(socket);
    if (ch == null) {
      return false;
    }
    try {
      synchronized (ch) {
        return ch.write(NUDGE.duplicate()) == 1;
      }
    } catch (IOException e) {
      return false;
    }
  }

  private void loop(Selector s) {
    ByteBuffer sink = ByteBuffer.allocate(64);
    while (true) {
      try {
        s.select();
      } catch (IOException e) {
        return;
      }
      wakeups.incrementAndGet();
      for (Runnable r; (r = pending.poll()) != null; ) {
        r.run();
      }
      for (Iterator<SelectionKey> it = s.selectedKeys().iterator(); it.hasNext(); ) {
        SelectionKey key = it.next();
        it.remove();
        try {
          if (key.isValid() && key.isAcceptable()) {
            SocketChannel peer = ((ServerSocketChannel) key.channel()).accept();
            if (peer != null) {
              peer.configureBlocking(false);
              peer.register(s, SelectionKey.OP_READ, key.attachment());
            }
          } else if (key.isValid() && key.isReadable()) {
            sink.clear();
            int n = ((SocketChannel) key.channel()).read(sink);
            if (n < 0) {
              ended(key);
            } else if (n > 0 && key.attachment() instanceof Nudge nudge) {
              run(nudge.action());
            }
          }
        } catch (IOException e) {
          ended(key);
        }
      }
    }
  }

  private void ended(SelectionKey key) {
    key.cancel();
    connections.values().remove(key.channel());
    try {
      key.channel().close();
    } catch (IOException e) {
      // Already gone.
    }
    if (key.attachment() instanceof Runnable onDeath) {
      run(onDeath);
    }
  }

  private static void run(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      System.getLogger(LivenessWatcher.class.getName())
          .log(System.Logger.Level.WARNING, "owner listener failed", e);
    }
  }
}
