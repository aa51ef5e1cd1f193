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
 * end-of-file (or could not be made) as suspected dead. It sleeps in {@link Selector#select()}
 * until something happens; it never polls.
 *
 * <p>Thread-safe.
 */
public final class LivenessWatcher {
  private static final LivenessWatcher INSTANCE = new LivenessWatcher();

  private final Queue<Runnable> pending = new ConcurrentLinkedQueue<>();
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

  /** Accepts connections to one of this JVM's owner sockets and holds them open. */
  void serve(ServerSocketChannel server) throws IOException {
    server.configureBlocking(false);
    Selector s = selector();
    pending.add(
        () -> {
          try {
            server.register(s, SelectionKey.OP_ACCEPT);
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

  private void loop(Selector s) {
    ByteBuffer sink = ByteBuffer.allocate(64);
    while (true) {
      try {
        s.select();
      } catch (IOException e) {
        return;
      }
      Wakeups.record();
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
              peer.register(s, SelectionKey.OP_READ);
            }
          } else if (key.isValid() && key.isReadable()) {
            sink.clear();
            if (((SocketChannel) key.channel()).read(sink) < 0) {
              ended(key);
            }
          }
        } catch (IOException e) {
          ended(key);
        }
      }
    }
  }

  private static void ended(SelectionKey key) {
    key.cancel();
    try {
      key.channel().close();
    } catch (IOException e) {
      // Already gone.
    }
    if (key.attachment() instanceof Runnable onDeath) {
      try {
        onDeath.run();
      } catch (RuntimeException e) {
        System.getLogger(LivenessWatcher.class.getName())
            .log(System.Logger.Level.WARNING, "owner death listener failed", e);
      }
    }
  }
}
