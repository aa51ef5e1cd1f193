/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.mcp;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;

/**
 * The server's stdin, telling when it ends: the client closed it (it quit, or closed the session)
 * or reading failed. The MCP transport reads it on its own thread; {@link #awaitEnd} lets the
 * command's thread sleep until then. Thread-safe.
 */
final class EndOfInput extends FilterInputStream {
  private final CountDownLatch ended = new CountDownLatch(1);

  EndOfInput(InputStream in) {
    super(in);
  }

  /** Sleeps until the input has ended. */
  void awaitEnd() throws InterruptedException {
    ended.await();
  }

  @Override
  public int read() throws IOException {
    return seen(readOrEnd(() -> super.read()));
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    return seen(readOrEnd(() -> super.read(b, off, len)));
  }

  @Override
  public void close() throws IOException {
    ended.countDown();
    super.close();
  }

  private int seen(int n) {
    if (n < 0) {
      ended.countDown();
    }
    return n;
  }

  private int readOrEnd(Read read) throws IOException {
    try {
      return read.read();
    } catch (IOException e) {
      ended.countDown();
      throw e;
    }
  }

  @FunctionalInterface
  private interface Read {
    int read() throws IOException;
  }
}
