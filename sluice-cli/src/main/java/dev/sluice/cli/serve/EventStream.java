/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One {@code GET /api/events} stream: server-sent events from the {@link Hub} until the client goes
 * or the server closes. A comment line goes out when nothing else has for {@value
 * #KEEPALIVE_SECONDS} seconds: only a write tells that a client has gone, and proxies drop idle
 * streams.
 *
 * <p>Runs on the request's thread, which sleeps in its queue between messages. Stateless.
 */
final class EventStream {
  static final long KEEPALIVE_SECONDS = 15;

  private EventStream() {}

  static void run(HttpExchange ex, Hub hub) throws IOException {
    run(ex, hub::subscribe, hub::unsubscribe);
  }

  /** A stream of what {@code subscribe}'s queue brings, until {@link Hub#END}. */
  static void run(
      HttpExchange ex,
      Supplier<BlockingQueue<String>> subscribe,
      Consumer<BlockingQueue<String>> unsubscribe)
      throws IOException {
    Exchanges.common(ex);
    ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
    ex.sendResponseHeaders(200, 0);
    BlockingQueue<String> q = subscribe.get();
    try (OutputStream out = ex.getResponseBody()) {
      // How long a browser waits before it reconnects after the stream ends.
      write(out, "retry: 2000\n\n");
      while (true) {
        String m = q.poll(KEEPALIVE_SECONDS, TimeUnit.SECONDS);
        if (Hub.END.equals(m)) {
          return;
        }
        write(out, m == null ? ": keepalive\n\n" : m);
      }
    } catch (IOException e) {
      // The client went away: nothing to tell it.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      unsubscribe.accept(q);
    }
  }

  private static void write(OutputStream out, String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
