/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server on 127.0.0.1 for the tests: each path answers with a script of replies, one
 * per request, the last repeated. Handlers that must hang wait on {@link #release}, which {@link
 * #close} opens.
 */
final class TestServer implements AutoCloseable {
  /** One reply to one request. */
  @FunctionalInterface
  interface Reply {
    void answer(HttpExchange exchange, TestServer server) throws IOException;
  }

  final CountDownLatch release = new CountDownLatch(1);
  final List<String> bodies = new CopyOnWriteArrayList<>();
  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();

  TestServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(threads);
    server.start();
  }

  /** Serves {@code path} with {@code replies}, the last repeated; returns the request counter. */
  AtomicInteger serve(String path, Reply... replies) {
    AtomicInteger count = new AtomicInteger();
    server.createContext(
        path,
        exchange -> {
          try (exchange) {
            bodies.add(
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            int n = count.getAndIncrement();
            replies[Math.min(n, replies.length - 1)].answer(exchange, this);
          }
        });
    return count;
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
  }

  static Reply status(int status, String body, String... headers) {
    return (exchange, server) -> {
      for (int i = 0; i < headers.length; i += 2) {
        exchange.getResponseHeaders().add(headers[i], headers[i + 1]);
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    };
  }

  /** Echoes the request body with 200. */
  static Reply echo() {
    return (exchange, server) ->
        status(200, server.bodies.get(server.bodies.size() - 1)).answer(exchange, server);
  }

  /** Sends headers and part of a chunked body, then hangs until the server closes. */
  static Reply hangingBody() {
    return (exchange, server) -> {
      exchange.sendResponseHeaders(200, 0);
      OutputStream out = exchange.getResponseBody();
      out.write(new byte[] {'p', 'a', 'r', 't'});
      out.flush();
      await(server.release);
    };
  }

  /** Sends nothing, not even headers, until the server closes. */
  static Reply hangingHeaders() {
    return (exchange, server) -> await(server.release);
  }

  /** Promises 100 bytes, sends 4, and closes the connection. */
  static Reply truncatedBody() {
    return truncatedBody(200);
  }

  /** Like {@link #truncatedBody()}, with this status and these headers (name, value, …). */
  static Reply truncatedBody(int status, String... headers) {
    return (exchange, server) -> {
      for (int i = 0; i < headers.length; i += 2) {
        exchange.getResponseHeaders().add(headers[i], headers[i + 1]);
      }
      exchange.sendResponseHeaders(status, 100);
      OutputStream out = exchange.getResponseBody();
      out.write(new byte[] {'o', 'o', 'p', 's'});
      out.flush();
      // Ending the exchange short of the promised length makes the server drop the connection.
      throw new IOException("the test ends this body early");
    };
  }

  /** Counts {@code arrived} down when the request came, then answers with {@code then}. */
  static Reply signalling(CountDownLatch arrived, Reply then) {
    return (exchange, server) -> {
      arrived.countDown();
      then.answer(exchange, server);
    };
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    release.countDown();
    server.stop(0);
    threads.shutdownNow();
  }
}
