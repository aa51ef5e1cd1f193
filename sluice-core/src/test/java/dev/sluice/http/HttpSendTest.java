/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import static dev.sluice.http.HttpLimiterTest.RETRIED;
import static dev.sluice.http.TestServer.hangingHeaders;
import static dev.sluice.http.TestServer.signalling;
import static dev.sluice.http.TestServer.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.AttemptOutcome;
import dev.sluice.AttemptTimeoutException;
import dev.sluice.ExecuteOptions;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The blocking send of each attempt, against a real local server: a timeout or a cancellation while
 * it waits for the response's headers stops it and leaves its thread fit for the next call;
 * failures reach the caller as the client raised them.
 */
class HttpSendTest extends LocalServerFixture {
  /** A call after the stopped one succeeds: no interrupt was left on the limiter's threads. */
  private void assertNextCallSucceeds() throws Exception {
    server.serve("/next", status(200, "next"));
    HttpRequest get = HttpRequest.newBuilder(server.uri("/next")).build();
    for (int i = 0; i < 3; i++) {
      HttpResponse<String> r =
          limiter.http().send(get, BodyHandlers.ofString(), ExecuteOptions.defaults());
      assertThat(r.body()).isEqualTo("next");
    }
  }

  @Test
  void theAttemptTimeoutCoversTheWaitForHeaders() throws Exception {
    server.serve("/silent", hangingHeaders());
    ExecuteOptions options =
        ExecuteOptions.builder().noRetry().attemptTimeout(Duration.ofMillis(300)).build();
    HttpRequest get = HttpRequest.newBuilder(server.uri("/silent")).build();
    assertThatThrownBy(() -> limiter.http().send(get, BodyHandlers.ofString(), options))
        .isInstanceOf(AttemptTimeoutException.class);
    assertReleased();
    assertNextCallSucceeds();
  }

  @Test
  void aCallerCancelWhileWaitingForHeadersStopsTheAttempt() throws Exception {
    CountDownLatch arrived = new CountDownLatch(1);
    server.serve("/silent", signalling(arrived, hangingHeaders()));
    HttpRequest get = HttpRequest.newBuilder(server.uri("/silent")).build();
    CompletableFuture<HttpResponse<String>> call =
        limiter.http().sendAsync(get, BodyHandlers.ofString(), ExecuteOptions.defaults());
    assertThat(arrived.await(20, TimeUnit.SECONDS)).as("the request reached the server").isTrue();
    call.cancel(true);
    assertReleased();
    assertNextCallSucceeds();
  }

  @Test
  void aBodyHandlerThatThrowsReachesTheCallerAndIsNotRetried() throws Exception {
    AtomicInteger hits = server.serve("/ok", status(200, "ok"));
    HttpRequest get = HttpRequest.newBuilder(server.uri("/ok")).build();
    HttpResponse.BodyHandler<String> broken =
        info -> {
          throw new IllegalStateException("the handler is broken");
        };
    assertThatThrownBy(() -> limiter.http().send(get, broken, RETRIED))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the handler is broken");
    assertThat(hits).hasValue(1);
    assertReleased();
  }

  @Test
  void aRefusedConnectionIsThrownAsTheClientRaisedIt() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = s.getLocalPort();
    }
    HttpRequest get =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + closedPort + "/gone")).build();
    assertThatThrownBy(() -> limiter.http().send(get, BodyHandlers.ofString(), RETRIED))
        .isExactlyInstanceOf(ConnectException.class);
    for (int attempt = 1; attempt <= RETRIED.retry().maxAttempts(); attempt++) {
      assertThat(events.settled(attempt).outcome())
          .as("attempt %d", attempt)
          .isEqualTo(AttemptOutcome.serviceFailure());
    }
    assertReleased();
  }
}
