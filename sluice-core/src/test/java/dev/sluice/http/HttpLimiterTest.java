/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import static dev.sluice.http.TestServer.echo;
import static dev.sluice.http.TestServer.status;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.AttemptOutcome;
import dev.sluice.ExecuteOptions;
import dev.sluice.Lease;
import dev.sluice.RetryPolicy;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Statuses, retries and request bodies of {@link HttpLimiter}, against a real local server. */
class HttpLimiterTest extends LocalServerFixture {
  static final ExecuteOptions RETRIED =
      ExecuteOptions.builder()
          .replaySafe(true)
          .retry(
              RetryPolicy.builder()
                  .maxAttempts(3)
                  .delays(Duration.ofMillis(5), Duration.ofMillis(20))
                  .build())
          .build();

  private HttpRequest get(String path) {
    return HttpRequest.newBuilder(server.uri(path)).build();
  }

  /** The one unit of the pool is free: the call released its lease. */
  @Test
  void aSuccessIsReturnedAndReleasesItsLease() throws Exception {
    AtomicInteger hits = server.serve("/ok", status(200, "hello"));
    HttpResponse<String> r = limiter.http().send(get("/ok"), BodyHandlers.ofString(), RETRIED);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).isEqualTo("hello");
    assertThat(hits).hasValue(1);
    assertReleased();
  }

  // The waits a Retry-After sets are pinned on a manual clock, in HttpRecoveryTest.

  @ParameterizedTest
  @ValueSource(ints = {429, 503})
  void aThrottleStatusIsAThrottleAndRetried(int status) throws Exception {
    AtomicInteger hits = server.serve("/busy", status(status, "busy"), status(200, "up"));
    HttpResponse<String> r = limiter.http().send(get("/busy"), BodyHandlers.ofString(), RETRIED);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(hits).hasValue(2);
    assertThat(events.settled(1).outcome()).isEqualTo(AttemptOutcome.throttle());
    assertThat(events.settled(2).outcome()).isEqualTo(AttemptOutcome.success());
    assertReleased();
  }

  @ParameterizedTest
  @ValueSource(ints = {500, 502, 504})
  void aServerErrorIsAServiceFailureAndRetried(int status) throws Exception {
    AtomicInteger hits = server.serve("/err", status(status, "error"), status(200, "up"));
    HttpResponse<String> r = limiter.http().send(get("/err"), BodyHandlers.ofString(), RETRIED);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(hits).hasValue(2);
    assertThat(events.settled(1).outcome()).isEqualTo(AttemptOutcome.serviceFailure());
    assertReleased();
  }

  @Test
  void theLastAttemptsTransientResponseIsReturnedNotThrown() throws Exception {
    AtomicInteger hits = server.serve("/down", status(502, "bad gateway"));
    HttpResponse<String> r = limiter.http().send(get("/down"), BodyHandlers.ofString(), RETRIED);
    assertThat(r.statusCode()).isEqualTo(502);
    assertThat(r.body()).isEqualTo("bad gateway");
    assertThat(hits).hasValue(3);
  }

  @Test
  void withoutReplaySafetyATransientResponseIsReturnedAtOnce() throws Exception {
    AtomicInteger hits = server.serve("/once", status(503, "down"), status(200, "up"));
    HttpResponse<String> r =
        limiter.http().send(get("/once"), BodyHandlers.ofString(), ExecuteOptions.defaults());
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(hits).hasValue(1);
  }

  @ParameterizedTest
  @ValueSource(ints = {400, 404})
  void aClientErrorIsNeutralAndNotRetried(int status) throws Exception {
    AtomicInteger hits = server.serve("/missing", status(status, "no"), status(200, "yes"));
    HttpResponse<String> r = limiter.http().send(get("/missing"), BodyHandlers.ofString(), RETRIED);
    assertThat(r.statusCode()).isEqualTo(status);
    assertThat(hits).hasValue(1);
    assertThat(events.settled(1).outcome()).isEqualTo(AttemptOutcome.neutral());
  }

  @Test
  void aStringBodyIsSentAgainOnEveryAttempt() throws Exception {
    server.serve("/echo", status(503, ""), echo());
    HttpRequest post =
        HttpRequest.newBuilder(server.uri("/echo"))
            .POST(BodyPublishers.ofString("order-7"))
            .build();
    HttpResponse<String> r = limiter.http().send(post, BodyHandlers.ofString(), RETRIED);
    assertThat(r.body()).isEqualTo("order-7");
    assertThat(server.bodies).containsExactly("order-7", "order-7");
  }

  @Test
  void aBodyFactoryMakesEachAttemptsBody() throws Exception {
    server.serve("/upload", status(503, ""), echo());
    HttpRequest post =
        HttpRequest.newBuilder(server.uri("/upload"))
            .POST(BodyPublishers.ofInputStream(() -> null))
            .build();
    BodyFactory factory =
        attempt ->
            BodyPublishers.ofInputStream(
                () -> new java.io.ByteArrayInputStream(("part-" + attempt).getBytes()));
    HttpResponse<String> r = limiter.http().send(post, factory, BodyHandlers.ofString(), RETRIED);
    assertThat(r.body()).isEqualTo("part-2");
    assertThat(server.bodies).containsExactly("part-1", "part-2");
  }

  @Test
  void aByteArrayBodyIsSentAsItWasWhenTheCallWasMade() throws Exception {
    server.serve("/echo", status(503, ""), echo());
    byte[] buffer = "order-7".getBytes(StandardCharsets.UTF_8);
    HttpRequest post =
        HttpRequest.newBuilder(server.uri("/echo"))
            .POST(BodyPublishers.ofByteArray(buffer))
            .build();
    // The pool's one lease is held, so no attempt can send before the caller reuses its buffer.
    CompletableFuture<HttpResponse<String>> call;
    try (Lease held = limiter.acquire(1)) {
      call = limiter.http().sendAsync(post, BodyHandlers.ofString(), RETRIED);
      Arrays.fill(buffer, (byte) 'x');
    }
    assertThat(call.get(20, TimeUnit.SECONDS).body()).isEqualTo("order-7");
    assertThat(server.bodies).containsExactly("order-7", "order-7");
  }

  @Test
  void aFileBodyIsSentAgainOnEveryAttempt(@TempDir Path dir) throws Exception {
    server.serve("/upload", status(503, ""), echo());
    Path file = Files.writeString(dir.resolve("body.txt"), "from-file");
    HttpRequest post =
        HttpRequest.newBuilder(server.uri("/upload")).POST(BodyPublishers.ofFile(file)).build();
    HttpResponse<String> r = limiter.http().send(post, BodyHandlers.ofString(), RETRIED);
    assertThat(r.body()).isEqualTo("from-file");
    assertThat(server.bodies).containsExactly("from-file", "from-file");
  }
}
