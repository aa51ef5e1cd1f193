/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import static dev.sluice.http.TestServer.echo;
import static dev.sluice.http.TestServer.status;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ExecuteOptions;
import dev.sluice.RetryPolicy;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

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

  @Test
  void a429WithRetryAfterInSecondsIsRetried() throws Exception {
    AtomicInteger hits =
        server.serve("/busy", status(429, "slow down", "Retry-After", "1"), status(200, "done"));
    HttpResponse<String> r = limiter.http().send(get("/busy"), BodyHandlers.ofString(), RETRIED);
    assertThat(r.body()).isEqualTo("done");
    assertThat(hits).hasValue(2);
  }

  @Test
  void a429WithRetryAfterAsAnHttpDateIsRetried() throws Exception {
    String date =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(
            Instant.now().plusSeconds(1).atOffset(ZoneOffset.UTC));
    AtomicInteger hits =
        server.serve("/date", status(429, "", "Retry-After", date), status(200, "done"));
    HttpResponse<String> r = limiter.http().send(get("/date"), BodyHandlers.ofString(), RETRIED);
    assertThat(r.body()).isEqualTo("done");
    assertThat(hits).hasValue(2);
  }

  @Test
  void a503ThenASuccessIsRetried() throws Exception {
    AtomicInteger hits = server.serve("/flaky", status(503, "down"), status(200, "up"));
    HttpResponse<String> r = limiter.http().send(get("/flaky"), BodyHandlers.ofString(), RETRIED);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(hits).hasValue(2);
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

  @Test
  void aClientErrorIsNeutralAndNotRetried() throws Exception {
    AtomicInteger hits = server.serve("/missing", status(404, "no"), status(200, "yes"));
    HttpResponse<String> r = limiter.http().send(get("/missing"), BodyHandlers.ofString(), RETRIED);
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(hits).hasValue(1);
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
}
