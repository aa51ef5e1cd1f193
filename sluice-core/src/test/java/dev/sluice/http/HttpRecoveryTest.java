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

import dev.sluice.AttemptOutcome;
import dev.sluice.BreakerPolicy;
import dev.sluice.ControlStatus;
import dev.sluice.ExecuteOptions;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterEvent;
import dev.sluice.RecoveryPolicy;
import dev.sluice.TimeSource;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What HTTP attempts tell the pool's shared cooldown and circuit breaker, against a real local
 * server, with the pool on a manual clock: a {@code Retry-After} (seconds, or a date measured on
 * the pool's clock) sets the retry's delay and the cooldown; a body closed before its end is no
 * evidence of recovery; a throttle outlives its failing body; a delivered body is never replayed;
 * the application's own failures are neutral.
 */
class HttpRecoveryTest extends LocalServerFixture {
  /**
   * Sunday 7 March 2004: a day of one digit, long past, so that a date measured against the system
   * clock instead of the pool's would be a wait of zero.
   */
  private static final Instant START = Instant.parse("2004-03-07T10:00:00Z");

  private static final Duration PAUSE = Duration.ofSeconds(30);
  private static final ExecuteOptions ONCE = ExecuteOptions.builder().noRetry().build();

  private final ManualTime time = new ManualTime(START);

  @Override
  TimeSource clock() {
    return time;
  }

  /** A breaker that one service failure opens for 30 s; the default cooldown (500 ms doubling). */
  @Override
  LimiterConfig config() {
    BreakerPolicy breaker =
        BreakerPolicy.consecutive().failureThreshold(1).initialPause(PAUSE).build();
    return LimiterConfig.builder()
        .maxConcurrent(1)
        .recovery(RecoveryPolicy.builder().breaker(breaker).build())
        .build();
  }

  private HttpRequest get(String path) {
    return HttpRequest.newBuilder(server.uri(path)).build();
  }

  private ControlStatus control() {
    return limiter.maintenance().status();
  }

  /**
   * The first attempt was throttled for 120 s by a response with {@code retryAfter}: the retry
   * waits exactly that long, the pool cools down as long, and after it the call succeeds.
   */
  private void assertRetriedAfterTwoMinutes(String retryAfter) throws Exception {
    AtomicInteger hits =
        server.serve(
            "/busy", status(429, "slow down", "Retry-After", retryAfter), status(200, "done"));
    CompletableFuture<HttpResponse<String>> call =
        limiter.http().sendAsync(get("/busy"), BodyHandlers.ofString(), RETRIED);
    assertThat(events.settled(1).outcome())
        .isEqualTo(AttemptOutcome.throttle(Duration.ofSeconds(120)));
    assertThat(events.next(LimiterEvent.RetryScheduled.class, e -> true).delay())
        .isEqualTo(Duration.ofSeconds(120));
    assertThat(control().cooldownUntil()).hasValue(START.plusSeconds(120));
    // The retry's timer was armed before its event went out: time may move past it now.
    time.advance(Duration.ofSeconds(120));
    assertThat(call.get(20, TimeUnit.SECONDS).body()).isEqualTo("done");
    assertThat(hits).hasValue(2);
  }

  @Test
  void a429WithRetryAfterInSecondsHoldsTheRetryAndThePoolThatLong() throws Exception {
    assertRetriedAfterTwoMinutes("120");
  }

  @Test
  void a429WithRetryAfterAsAnHttpDateIsMeasuredOnThePoolsClock() throws Exception {
    String date =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(
            START.plusSeconds(120).atOffset(ZoneOffset.UTC));
    assertThat(date).as("Java writes a day of one digit").isEqualTo("Sun, 7 Mar 2004 10:02:00 GMT");
    assertRetriedAfterTwoMinutes(date);
  }

  @Test
  void a429WhoseRetryAfterOutlastsTheDeadlineIsReturnedAtOnce() throws Exception {
    AtomicInteger hits =
        server.serve(
            "/later",
            status(429, "come back in ten minutes", "Retry-After", "600"),
            status(200, "too late"));
    // A retry could start only after 600 s, past the 5-minute deadline: the 429 was the last
    // attempt, so it is the application's now rather than a timeout five minutes later.
    HttpResponse<String> r =
        limiter
            .http()
            .sendAsync(get("/later"), BodyHandlers.ofString(), RETRIED)
            .get(20, TimeUnit.SECONDS);
    assertThat(r.statusCode()).isEqualTo(429);
    assertThat(r.body()).isEqualTo("come back in ten minutes");
    assertThat(hits).hasValue(1);
    // The attempt reports its throttle when its body ended, after the response was handed over.
    assertThat(events.settled(1).outcome()).isInstanceOf(AttemptOutcome.Throttle.class);
    assertThat(control().cooldownUntil())
        .as("the pool still honours the provider's guidance")
        .hasValue(START.plusSeconds(600));
  }

  @Test
  void aProbeWhose200BodyIsAbandonedDoesNotCloseTheCircuit() throws Exception {
    server.serve("/down", status(500, "down"));
    server.serve("/stream", hangingBody());
    server.serve("/ok", status(200, "ok"));
    limiter.http().send(get("/down"), BodyHandlers.ofString(), ONCE);
    assertThat(events.settled(1).outcome()).isInstanceOf(AttemptOutcome.ServiceFailure.class);
    assertThat(control().circuit()).isEqualTo(ControlStatus.Circuit.OPEN);

    time.advance(PAUSE);
    HttpResponse<InputStream> probe =
        limiter.http().send(get("/stream"), BodyHandlers.ofInputStream(), ONCE);
    try (InputStream body = probe.body()) {
      assertThat(new String(body.readNBytes(4), StandardCharsets.UTF_8)).isEqualTo("part");
    }
    assertThat(events.settled(1).outcome()).isEqualTo(AttemptOutcome.neutral());
    assertThat(control().circuit())
        .as("a probe that proved nothing opens the circuit again")
        .isEqualTo(ControlStatus.Circuit.OPEN);

    // A probe whose body is read to its end closes it.
    time.advance(PAUSE);
    HttpResponse<InputStream> read =
        limiter.http().send(get("/ok"), BodyHandlers.ofInputStream(), ONCE);
    try (InputStream body = read.body()) {
      assertThat(body.readAllBytes()).isEqualTo("ok".getBytes(StandardCharsets.UTF_8));
    }
    assertThat(events.settled(1).outcome()).isEqualTo(AttemptOutcome.success());
    assertThat(control().circuit()).isEqualTo(ControlStatus.Circuit.CLOSED);
  }

  @Test
  void anAbandoned200BodyDoesNotResetTheCooldownsStep() throws Exception {
    server.serve("/busy", status(429, "slow down"));
    server.serve("/stream", hangingBody());
    limiter.http().send(get("/busy"), BodyHandlers.ofString(), ONCE);
    events.settled(1);
    assertThat(control().cooldownUntil()).hasValue(START.plusMillis(500));

    time.advance(Duration.ofMillis(500));
    HttpResponse<InputStream> r =
        limiter.http().send(get("/stream"), BodyHandlers.ofInputStream(), ONCE);
    r.body().close();
    assertThat(events.settled(1).outcome()).isEqualTo(AttemptOutcome.neutral());

    // Had the abandoned body counted as a success, the step would have started over at 500 ms.
    limiter.http().send(get("/busy"), BodyHandlers.ofString(), ONCE);
    events.settled(1);
    assertThat(control().cooldownUntil()).hasValue(time.now().plusMillis(1000));
  }

  @Test
  void aThrottleSurvivesItsBodyFailingWhileTheClientBuffersIt() throws Exception {
    AtomicInteger hits =
        server.serve("/busy", truncatedBody(429, "Retry-After", "120"), status(200, "done"));
    CompletableFuture<HttpResponse<String>> call =
        limiter.http().sendAsync(get("/busy"), BodyHandlers.ofString(), RETRIED);
    LimiterEvent.AttemptEnded first = events.settled(1);
    assertThat(first.threw()).as("the client failed the send on the broken body").isTrue();
    assertThat(first.outcome()).isEqualTo(AttemptOutcome.throttle(Duration.ofSeconds(120)));
    assertThat(control().cooldownUntil()).hasValue(START.plusSeconds(120));
    assertThat(control().circuit()).isEqualTo(ControlStatus.Circuit.CLOSED);
    // The retry's timer is armed once this event is out: only then may time move past it.
    assertThat(events.next(LimiterEvent.RetryScheduled.class, e -> true).delay())
        .isEqualTo(Duration.ofSeconds(120));
    time.advance(Duration.ofSeconds(120));
    assertThat(call.get(20, TimeUnit.SECONDS).body()).isEqualTo("done");
    assertThat(hits).hasValue(2);
  }

  @Test
  void aThrottleSurvivesItsDeliveredBodyFailing() throws Exception {
    server.serve("/busy", truncatedBody(429, "Retry-After", "120"));
    HttpResponse<InputStream> r =
        limiter.http().send(get("/busy"), BodyHandlers.ofInputStream(), ONCE);
    assertThat(r.statusCode()).isEqualTo(429);
    try (InputStream body = r.body()) {
      assertThatThrownBy(body::readAllBytes).isInstanceOf(IOException.class);
    }
    assertThat(events.settled(1).outcome())
        .isEqualTo(AttemptOutcome.throttle(Duration.ofSeconds(120)).withoutRetry());
    assertThat(control().cooldownUntil()).hasValue(START.plusSeconds(120));
  }

  @Test
  void aDeliveredStreamedBodyThatFailsIsNeverReplayed() throws Exception {
    AtomicInteger hits = server.serve("/broken", truncatedBody(), status(200, "whole"));
    HttpResponse<InputStream> r =
        limiter.http().send(get("/broken"), BodyHandlers.ofInputStream(), RETRIED);
    try (InputStream body = r.body()) {
      assertThatThrownBy(body::readAllBytes).isInstanceOf(IOException.class);
    }
    assertThat(events.settled(1).outcome())
        .as("the service failed, but the application saw the response")
        .isEqualTo(AttemptOutcome.serviceFailure().withoutRetry());
    // The attempt's report ended the operation: no retry waits, whatever the clock does.
    assertThat(control().runningOperations()).isZero();
    assertThat(hits).hasValue(1);
  }

  @Test
  void aFailureOfTheApplicationsBodyHandlerIsNeutralAndNotRetried(@TempDir Path dir)
      throws Exception {
    AtomicInteger hits = server.serve("/ok", status(200, "ok"));
    Path unwritable = dir.resolve("no-such-directory").resolve("out.txt");
    CompletableFuture<HttpResponse<Path>> call =
        limiter.http().sendAsync(get("/ok"), BodyHandlers.ofFile(unwritable), RETRIED);
    assertThat(events.settled(1).outcome()).isEqualTo(AttemptOutcome.neutral());
    assertThat(control().runningOperations()).isZero();
    assertThatThrownBy(() -> call.get(20, TimeUnit.SECONDS))
        .as("the caller gets the failure as its handler raised it")
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(NoSuchFileException.class);
    assertThat(control().circuit()).isEqualTo(ControlStatus.Circuit.CLOSED);
    assertThat(hits).hasValue(1);
  }
}
