/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import static dev.sluice.http.HttpLimiterTest.RETRIED;
import static dev.sluice.http.TestServer.hangingBody;
import static dev.sluice.http.TestServer.status;
import static dev.sluice.http.TestServer.truncatedBody;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.AttemptTimeoutException;
import dev.sluice.ExecuteOptions;
import dev.sluice.LimiterConfig;
import dev.sluice.PoolSnapshot;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Response bodies hold the lease; timeouts, failures and resets, against a real local server. */
class HttpBodyTest extends LocalServerFixture {
  @Override
  LimiterConfig config() {
    return LimiterConfig.builder().maxConcurrent(1).reservoir(100).build();
  }

  @Test
  void theAttemptTimeoutCoversASlowBody() throws Exception {
    server.serve("/slow", hangingBody());
    ExecuteOptions options =
        ExecuteOptions.builder().noRetry().attemptTimeout(Duration.ofMillis(300)).build();
    HttpRequest get = HttpRequest.newBuilder(server.uri("/slow")).build();
    assertThatThrownBy(() -> limiter.http().send(get, BodyHandlers.ofString(), options))
        .isInstanceOf(AttemptTimeoutException.class);
    assertReleased();
  }

  @Test
  void aStreamedBodyIsAbortedWhenTheAttemptTimeoutPasses() throws Exception {
    server.serve("/slow-stream", hangingBody());
    ExecuteOptions options =
        ExecuteOptions.builder().noRetry().attemptTimeout(Duration.ofMillis(300)).build();
    HttpRequest get = HttpRequest.newBuilder(server.uri("/slow-stream")).build();
    HttpResponse<InputStream> r = limiter.http().send(get, BodyHandlers.ofInputStream(), options);
    try (InputStream body = r.body()) {
      assertThatThrownBy(body::readAllBytes).isInstanceOf(java.io.IOException.class);
    }
    assertReleased();
  }

  @Test
  void aBodyThatFailsIsAServiceFailureAndRetried() throws Exception {
    AtomicInteger hits = server.serve("/broken", truncatedBody(), status(200, "whole"));
    HttpRequest get = HttpRequest.newBuilder(server.uri("/broken")).build();
    HttpResponse<String> r = limiter.http().send(get, BodyHandlers.ofString(), RETRIED);
    assertThat(r.body()).isEqualTo("whole");
    assertThat(hits).hasValue(2);
    assertReleased();
  }

  @Test
  void aResetConnectionIsAServiceFailureAndRetried() throws Exception {
    try (ServerSocket raw = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
      AtomicInteger connections = new AtomicInteger();
      Thread acceptor =
          new Thread(
              () -> {
                try {
                  while (true) {
                    Socket s = raw.accept();
                    if (connections.getAndIncrement() == 0) {
                      s.getInputStream().read();
                      s.setSoLinger(true, 0); // a reset, not an orderly close
                      s.close();
                    } else {
                      answerOk(s);
                    }
                  }
                } catch (java.io.IOException e) {
                  // The socket closed: the test is over.
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      HttpRequest get =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + raw.getLocalPort() + "/r"))
              .build();
      HttpResponse<String> r = limiter.http().send(get, BodyHandlers.ofString(), RETRIED);
      assertThat(r.body()).isEqualTo("ok");
      assertThat(connections).hasValue(2);
    }
    assertReleased();
  }

  private static void answerOk(Socket s) throws java.io.IOException {
    try (s) {
      InputStream in = s.getInputStream();
      // Reads the request head up to its blank line.
      int matched = 0;
      while (matched < 4) {
        int c = in.read();
        if (c < 0) {
          return;
        }
        matched = (c == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : 0;
      }
      OutputStream out = s.getOutputStream();
      out.write(
          "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
    }
  }

  @Test
  void sendAndReadClosesAStreamItsReaderLeavesHalfWay() throws Exception {
    server.serve("/read-part", hangingBody());
    HttpRequest get = HttpRequest.newBuilder(server.uri("/read-part")).build();
    String part =
        limiter
            .http()
            .sendAndRead(
                get,
                BodyHandlers.ofInputStream(),
                ExecuteOptions.defaults(),
                r -> new String(r.body().readNBytes(4), StandardCharsets.UTF_8));
    assertThat(part).isEqualTo("part");
    assertReleased();
  }

  @Test
  void sendAndReadCancelsAPublisherItsReaderNeverSubscribedTo() throws Exception {
    server.serve("/read-none", hangingBody());
    HttpRequest get = HttpRequest.newBuilder(server.uri("/read-none")).build();
    int status =
        limiter
            .http()
            .sendAndRead(
                get, BodyHandlers.ofPublisher(), ExecuteOptions.defaults(), r -> r.statusCode());
    assertThat(status).isEqualTo(200);
    assertReleased();
  }

  @Test
  void sendAndReadClosesTheStreamWhenItsReaderThrows() throws Exception {
    server.serve("/read-fail", hangingBody());
    HttpRequest get = HttpRequest.newBuilder(server.uri("/read-fail")).build();
    assertThatThrownBy(
            () ->
                limiter
                    .http()
                    .sendAndRead(
                        get,
                        BodyHandlers.ofLines(),
                        ExecuteOptions.defaults(),
                        r -> {
                          throw new IllegalStateException("the application gave up");
                        }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the application gave up");
    assertReleased();
  }

  @Test
  void aStreamedBodyAbandonedHalfWayReleasesTheLeaseWhenClosed() throws Exception {
    server.serve("/stream", hangingBody());
    HttpRequest get = HttpRequest.newBuilder(server.uri("/stream")).build();
    HttpResponse<InputStream> r =
        limiter.http().send(get, BodyHandlers.ofInputStream(), ExecuteOptions.defaults());
    InputStream body = r.body();
    assertThat(new String(body.readNBytes(4), StandardCharsets.UTF_8)).isEqualTo("part");
    assertThat(limiter.tryAcquire(1)).as("the unread body still holds the lease").isEmpty();
    body.close();
    assertReleased();
  }

  @Test
  void aBodyThatCannotBeSentTwiceIsRefusedBeforeAnythingIsSpent() throws Exception {
    AtomicInteger hits = server.serve("/upload", status(200, "ok"));
    HttpRequest post =
        HttpRequest.newBuilder(server.uri("/upload"))
            .POST(
                BodyPublishers.ofInputStream(
                    () -> new java.io.ByteArrayInputStream(new byte[] {1})))
            .build();
    PoolSnapshot before = limiter.inspect();
    assertThatThrownBy(() -> limiter.http().send(post, BodyHandlers.ofString(), RETRIED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("POST " + server.uri("/upload"))
        .hasMessageContaining("BodyFactory");
    PoolSnapshot after = limiter.inspect();
    assertThat(after.reservoir()).isEqualTo(before.reservoir());
    assertThat(after.activeWeight()).isEqualTo(before.activeWeight());
    assertThat(after.leases()).isEqualTo(before.leases());
    assertThat(after.waiters()).isEqualTo(before.waiters());
    assertThat(hits).hasValue(0);
  }

  @Test
  void aBodyThatCannotBeSentTwiceIsSentOnceWhenNotReplaySafe() throws Exception {
    server.serve("/once", status(503, "busy"));
    HttpRequest post =
        HttpRequest.newBuilder(server.uri("/once"))
            .POST(
                BodyPublishers.ofInputStream(
                    () -> new java.io.ByteArrayInputStream(new byte[] {'x'})))
            .build();
    HttpResponse<String> r =
        limiter.http().send(post, BodyHandlers.ofString(), ExecuteOptions.defaults());
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(server.bodies).containsExactly("x");
    assertThat(limiter.inspect().reservoir()).hasValue(99);
  }
}
