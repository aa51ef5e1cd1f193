/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.AttemptOutcome;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import javax.net.ssl.SSLSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The built-in judgement of HTTP statuses, transport failures and bodies. */
class HttpClassifierTest {
  private static final Instant NOW = Instant.parse("1994-11-06T08:48:07Z");

  /** A response that is only a status and headers (name, value, …). */
  private record StatusOnly(int statusCode, HttpHeaders headers) implements HttpResponse<Void> {
    static StatusOnly of(int status, String... headers) {
      Map<String, List<String>> map = new java.util.HashMap<>();
      for (int i = 0; i < headers.length; i += 2) {
        map.put(headers[i], List.of(headers[i + 1]));
      }
      return new StatusOnly(status, HttpHeaders.of(map, (name, value) -> true));
    }

    @Override
    public HttpRequest request() {
      return HttpRequest.newBuilder(URI.create("http://127.0.0.1/")).build();
    }

    @Override
    public Optional<HttpResponse<Void>> previousResponse() {
      return Optional.empty();
    }

    @Override
    public Void body() {
      return null;
    }

    @Override
    public Optional<SSLSession> sslSession() {
      return Optional.empty();
    }

    @Override
    public URI uri() {
      return request().uri();
    }

    @Override
    public HttpClient.Version version() {
      return HttpClient.Version.HTTP_1_1;
    }
  }

  private static AttemptOutcome judge(int status, String... headers) {
    return HttpClassifier.ofResponse(StatusOnly.of(status, headers), NOW);
  }

  @ParameterizedTest
  @ValueSource(ints = {429, 503})
  void tooManyRequestsAndUnavailableAreThrottles(int status) {
    assertThat(judge(status)).isEqualTo(AttemptOutcome.throttle());
    assertThat(judge(status, "Retry-After", "120"))
        .isEqualTo(AttemptOutcome.throttle(Duration.ofSeconds(120)));
    assertThat(judge(status, "Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT"))
        .isEqualTo(AttemptOutcome.throttle(Duration.ofSeconds(90)));
    assertThat(judge(status, "Retry-After", "soon"))
        .as("a malformed Retry-After is ignored")
        .isEqualTo(AttemptOutcome.throttle());
  }

  @ParameterizedTest
  @ValueSource(ints = {500, 502, 504})
  void serverErrorsAreServiceFailures(int status) {
    assertThat(judge(status)).isEqualTo(AttemptOutcome.serviceFailure());
    assertThat(judge(status, "Retry-After", "120"))
        .as("a Retry-After does not make a failure a throttle")
        .isEqualTo(AttemptOutcome.serviceFailure());
  }

  @ParameterizedTest
  @ValueSource(ints = {200, 201, 204, 299})
  void twoHundredsAreSuccesses(int status) {
    assertThat(judge(status)).isEqualTo(AttemptOutcome.success());
  }

  @ParameterizedTest
  @ValueSource(ints = {100, 301, 304, 400, 401, 403, 404, 409, 422, 501, 505, 599})
  void everyOtherStatusIsNeutral(int status) {
    assertThat(judge(status)).isEqualTo(AttemptOutcome.neutral());
  }

  static Stream<Throwable> transportFailures() {
    return Stream.of(
        new ConnectException("Connection refused"),
        new HttpConnectTimeoutException("HTTP connect timed out"),
        new HttpTimeoutException("request timed out"),
        new SocketException("Connection reset"),
        new EOFException("EOF reached while reading"),
        new IOException("fixed content-length: 100, bytes received: 4"),
        new CompletionException(new SocketException("Connection reset")),
        new ExecutionException(new ConnectException("Connection refused")));
  }

  @ParameterizedTest
  @MethodSource("transportFailures")
  void refusedResetAndTimedOutConnectionsAreServiceFailures(Throwable failure) {
    assertThat(HttpClassifier.ofFailure(failure)).isEqualTo(AttemptOutcome.serviceFailure());
  }

  @Test
  void cancellationsAndTheApplicationsOwnFailuresAreNeutral() {
    assertThat(HttpClassifier.ofFailure(new CancellationException()))
        .isEqualTo(AttemptOutcome.neutral());
    assertThat(HttpClassifier.ofFailure(new IllegalStateException("a bug")))
        .isEqualTo(AttemptOutcome.neutral());
    assertThat(HttpClassifier.ofFailure(new ApplicationFailure(new IOException("disk full"))))
        .as("an I/O failure of the application's own handler is not the service's")
        .isEqualTo(AttemptOutcome.neutral());
  }

  @Test
  void aSuccessStandsOnlyForABodyReadToItsEnd() {
    AttemptOutcome ok = AttemptOutcome.success();
    assertThat(HttpClassifier.afterBody(ok, BodyEnd.READ)).isEqualTo(ok);
    assertThat(HttpClassifier.afterBody(ok, BodyEnd.ABANDONED)).isEqualTo(AttemptOutcome.neutral());
    assertThat(HttpClassifier.afterBody(ok, new BodyEnd.Failed(new IOException("reset"))))
        .isEqualTo(AttemptOutcome.serviceFailure());
    assertThat(
            HttpClassifier.afterBody(
                ok, new BodyEnd.Failed(new ApplicationFailure(new IOException("disk full")))))
        .isEqualTo(AttemptOutcome.neutral());
  }

  @Test
  void anyOtherStatusStandsWhateverItsBodyDid() {
    List<BodyEnd> ends =
        List.of(BodyEnd.READ, BodyEnd.ABANDONED, new BodyEnd.Failed(new IOException("reset")));
    for (AttemptOutcome byStatus :
        List.of(
            AttemptOutcome.throttle(Duration.ofSeconds(120)),
            AttemptOutcome.throttle(),
            AttemptOutcome.serviceFailure(),
            AttemptOutcome.neutral())) {
      for (BodyEnd end : ends) {
        assertThat(HttpClassifier.afterBody(byStatus, end))
            .as("%s, %s", byStatus, end)
            .isEqualTo(byStatus);
      }
    }
  }

  @Test
  void aThrottleOutlivesATransportFailureOfItsBody() {
    AttemptOutcome throttle = AttemptOutcome.throttle(Duration.ofSeconds(120));
    IOException reset = new SocketException("Connection reset");
    assertThat(HttpClassifier.ofFailure(reset, throttle)).isEqualTo(throttle);
    assertThat(HttpClassifier.ofFailure(reset, AttemptOutcome.success()))
        .isEqualTo(AttemptOutcome.serviceFailure());
    assertThat(HttpClassifier.ofFailure(reset, null)).isEqualTo(AttemptOutcome.serviceFailure());
    assertThat(HttpClassifier.ofFailure(new ApplicationFailure(reset), throttle))
        .as("the application's failure is never retried")
        .isEqualTo(AttemptOutcome.neutral());
    assertThat(HttpClassifier.ofFailure(new CancellationException(), throttle))
        .isEqualTo(AttemptOutcome.neutral());
  }
}
