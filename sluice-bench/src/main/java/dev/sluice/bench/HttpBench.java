/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench;

import com.sun.net.httpserver.HttpServer;
import dev.sluice.ExecuteOptions;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.http.HttpLimiter;
import dev.sluice.memory.MemoryStore;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What {@code limiter.http().send} adds to an HTTP call: a GET of a 2-byte body from the JDK's
 * server on 127.0.0.1, sent by one shared {@link HttpClient} bare ({@code bareSend}) and through a
 * memory pool with {@code maxConcurrent(64)} (never full) with the default execute options ({@code
 * sluiceSend}: one attempt's lease, the deadline and attempt-timeout timers, the status judgement,
 * the hand-off to the limiter's executor and the wait for the body's end). Run with {@code -t 1}
 * and {@code -t 8}.
 */
@BenchmarkMode(Mode.AverageTime)
@Fork(jvmArgsAppend = {ForkedHeap.INITIAL, ForkedHeap.MAX, ForkedHeap.PRE_TOUCH})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class HttpBench {
  private HttpServer server;
  private ExecutorService serverThreads;
  private HttpClient client;
  private HttpRequest request;
  private Limiter limiter;
  private HttpLimiter http;

  /** Starts the server, the client and the limiter. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    // The JDK server leaves Nagle's algorithm on by default, and a small response then waits for
    // the client's delayed ACK (about 40 ms a call on Linux), which would swamp what is measured.
    // Read when the server's configuration loads, so it is set before the first server.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    serverThreads = Executors.newFixedThreadPool(8);
    server.setExecutor(serverThreads);
    server.createContext(
        "/ok",
        exchange -> {
          try (exchange) {
            exchange.sendResponseHeaders(200, 2);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(new byte[] {'o', 'k'});
            }
          }
        });
    server.start();
    client = HttpClient.newHttpClient();
    request =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/ok"))
            .build();
    limiter =
        Limiter.open(
            MemoryStore.named(PoolKeys.fresh("http")),
            LimiterConfig.builder().maxConcurrent(64).build());
    http = limiter.http(client);
  }

  /** Stops them. */
  @TearDown(Level.Trial)
  public void tearDown() {
    limiter.close();
    server.stop(0);
    serverThreads.shutdownNow();
  }

  /** The bare client. */
  @Benchmark
  public String bareSend() throws Exception {
    return client.send(request, BodyHandlers.ofString()).body();
  }

  /** The same call through the limiter. */
  @Benchmark
  public String sluiceSend() throws Exception {
    return http.send(request, BodyHandlers.ofString(), ExecuteOptions.defaults()).body();
  }
}
