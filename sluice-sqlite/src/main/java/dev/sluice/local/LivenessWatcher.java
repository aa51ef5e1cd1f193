/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import dev.sluice.spi.support.Logs;
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
  synchronized void serve(ServerSocketChannel server) throws IOException {
    server.configureBlocking(false);
    Selector s = selector();
    pending.add(
        () -> {
          try {
            server.register(s, SelectionKey.OP_ACCEPT, server);
          } catch (IOException e) {
            // The owner closed before its socket was registered.
          }
        });
    s.wakeup();
  }

  /**
   * Stops serving an owner socket that was just closed: the connections it accepted are closed too,
   * so their watchers see end-of-file, and the selector closes once it watches nothing.
   */
  synchronized void retire(ServerSocketChannel server) {
    Selector s = selector;
    if (s == null) {
      return;
    }
    pending.add(
        () -> {
          for (SelectionKey key : s.keys()) {
            if (key.attachment() == server) {
              closeQuietly(key);
            }
          }
          closeIfIdle(s);
        });
    s.wakeup();
  }

  /**
   * Closes the selector when it has nothing left to watch. Its thread blocks in native code, and
   * the JVM's exit waits up to 300 ms for such threads, which every short-lived command would pay.
   * Runs on the selector thread.
   */
  private void closeIfIdle(Selector s) {
    for (SelectionKey key : s.keys()) {
      if (key.isValid()) {
        return;
      }
    }
    synchronized (this) {
      if (selector == s && pending.isEmpty()) {
        selector = null;
        try {
          s.close();
        } catch (IOException e) {
          // Best effort; the thread ends with the JVM anyway.
        }
      }
    }
  }

  private static void closeQuietly(java.nio.channels.Channel ch) {
    try {
      ch.close();
    } catch (IOException e) {
      // Already closed.
    }
  }

  private static void closeQuietly(SelectionKey key) {
    key.cancel();
    closeQuietly(key.channel());
  }

  /**
   * Connects to another process's owner socket and runs {@code onDeath} once if the connection ends
   * or cannot be made.
   *
   * @param socket the owner's {@code owners/<id>.sock}
   * @param onDeath a short action, run on the watcher thread or the calling thread
   * @return closing it stops the watch
   */
  public synchronized AutoCloseable watch(Path socket, Runnable onDeath) {
    SocketChannel ch;
    try {
      ch = SocketChannel.open(StandardProtocolFamily.UNIX);
    } catch (IOException e) {
      onDeath.run();
      return () -> {};
    }
    try {
      ch.connect(UnixDomainSocketAddress.of(socket));
      ch.configureBlocking(false);
    } catch (IOException e) {
      // Refused: an owner on its way out is connected to again and again, each time a channel.
      closeQuietly(ch);
      onDeath.run();
      return () -> {};
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
      return () -> unwatch(ch);
    } catch (IOException e) {
      closeQuietly(ch);
      onDeath.run();
      return () -> {};
    }
  }

  /** Stops watching one connection; the selector closes once it watches nothing. */
  private synchronized void unwatch(SocketChannel ch) {
    Selector s = selector;
    if (s == null) {
      return;
    }
    pending.add(
        () -> {
          SelectionKey key = ch.keyFor(s);
          if (key != null) {
            key.cancel();
          }
          try {
            ch.close();
          } catch (IOException e) {
            // Already closed.
          }
          closeIfIdle(s);
        });
    s.wakeup();
  }

  private void loop(Selector s) {
    ByteBuffer sink = ByteBuffer.allocate(64);
    while (true) {
      try {
        s.select();
      } catch (IOException | java.nio.channels.ClosedSelectorException e) {
        return;
      }
      Wakeups.record();
      for (Runnable r; (r = pending.poll()) != null; ) {
        r.run();
      }
      if (!s.isOpen()) {
        return;
      }
      for (Iterator<SelectionKey> it = s.selectedKeys().iterator(); it.hasNext(); ) {
        SelectionKey key = it.next();
        it.remove();
        try {
          if (key.isValid() && key.isAcceptable()) {
            SocketChannel peer = ((ServerSocketChannel) key.channel()).accept();
            if (peer != null) {
              peer.configureBlocking(false);
              // Attached to its server, so that retiring the owner closes it too.
              peer.register(s, SelectionKey.OP_READ, key.channel());
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
        Logs.of(LivenessWatcher.class).warn("an owner death listener failed", e);
      }
    }
  }
}
