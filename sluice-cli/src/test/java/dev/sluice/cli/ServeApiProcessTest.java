/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.cli.SluiceProcesses.Result;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateService;
import dev.sluice.gate.TicketState;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice serve}'s JSON API over real HTTP, against a real server process and real {@code
 * sluice run} processes: what {@code /api/status} shows, the actions, and the refusals of changes
 * without the token or from another origin.
 */
class ServeApiProcessTest {
  @TempDir Path home;
  ServeProcess serve;
  GateService gate;

  @BeforeEach
  void start() throws Exception {
    Result set = new SluiceProcesses(home).run("pool", "set", "p", "--capacity", "1");
    assertThat(set.exit()).as(set.toString()).isZero();
    serve = ServeProcess.start(home, "127.0.0.1:0");
    gate = GateService.open(home);
  }

  @AfterEach
  void stop() throws Exception {
    serve.close();
    gate.close();
  }

  private String awaitEvent(String type) throws InterruptedException {
    GateEvent e = EventWait.await(gate, type, "p");
    return e.requestId();
  }

  @Test
  void statusShowsAHolderWithItsLabelAndPidAndTheQueue() throws Exception {
    serve.run("p", "nightly", "exec sleep 600");
    String held = awaitEvent("started");
    serve.run("p", "second", "exec sleep 600");
    String queued = awaitEvent("queued");

    JsonNode pool = serve.pool("p");
    JsonNode holder = pool.get("holders").get(0);
    assertThat(holder.get("requestId").asText()).isEqualTo(held);
    assertThat(holder.get("label").asText()).isEqualTo("nightly");
    assertThat(holder.get("process").get("pid").asLong()).isPositive();
    assertThat(holder.get("since").asText()).isNotEmpty();
    assertThat(pool.get("queue").get(0).get("requestId").asText()).isEqualTo(queued);
    assertThat(pool.get("queue").get(0).get("label").asText()).isEqualTo("second");
    JsonNode status = serve.get("/api/status");
    assertThat(status.get("readAt").asText()).isNotEmpty();
    assertThat(status.get("canAct").asBoolean()).isFalse();
  }

  @Test
  void aChangeWithoutTheTokenIsRefusedAndChangesNothing() throws Exception {
    HttpResponse<String> r = serve.post("/api/capacity", "{\"pool\":\"p\",\"capacity\":5}");

    assertThat(r.statusCode()).as(r.body()).isEqualTo(401);
    assertThat(r.body()).contains("token");
    assertThat(serve.pool("p").get("capacity").asInt()).isEqualTo(1);
  }

  @Test
  void aChangeWithAWrongTokenIsRefused() throws Exception {
    HttpResponse<String> r =
        serve.post(
            "/api/capacity",
            "{\"pool\":\"p\",\"capacity\":5}",
            "Authorization",
            "Bearer not-the-token-at-all");

    assertThat(r.statusCode()).as(r.body()).isEqualTo(401);
    assertThat(serve.pool("p").get("capacity").asInt()).isEqualTo(1);
  }

  @Test
  void aChangeFromAnotherOriginIsRefusedEvenWithTheToken() throws Exception {
    HttpResponse<String> r =
        serve.postFromForeignOrigin("/api/capacity", "{\"pool\":\"p\",\"capacity\":5}");

    assertThat(r.statusCode()).as(r.body()).isEqualTo(403);
    assertThat(r.body()).contains("evil.example");
    assertThat(serve.pool("p").get("capacity").asInt()).isEqualTo(1);
  }

  @Test
  void aCapacityChangeWithTheTokenIsRecordedWithTheOperator() throws Exception {
    HttpResponse<String> r =
        serve.postWithToken("/api/capacity", "{\"pool\":\"p\",\"capacity\":3,\"reason\":\"more\"}");

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode answer = ServeProcess.JSON.readTree(r.body());
    assertThat(answer.get("newCapacity").asInt()).isEqualTo(3);
    assertThat(answer.get("actor").asText()).isEqualTo("operator (console)");
    assertThat(serve.pool("p").get("capacity").asInt()).isEqualTo(3);
  }

  @Test
  void badInputNamesTheFieldAndTheValue() throws Exception {
    HttpResponse<String> r =
        serve.postWithToken("/api/capacity", "{\"pool\":\"p\",\"capacity\":\"lots\"}");

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("capacity", "lots", "1 to 1000000");
  }

  @Test
  void cancelWithdrawsAQueuedRunAndItsProcessEnds() throws Exception {
    serve.run("p", "first", "exec sleep 600");
    awaitEvent("started");
    Process second = serve.run("p", "second", "exec sleep 600");
    String queued = awaitEvent("queued");

    HttpResponse<String> r =
        serve.postWithToken("/api/cancel", "{\"requestId\":\"" + queued + "\"}");

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(second.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(gate.ticket(queued).orElseThrow().state()).isEqualTo(TicketState.CANCELLED);
  }

  @Test
  void forceReleaseWithKillStopsTheRunAndFreesTheSlot() throws Exception {
    Process run = serve.run("p", "stuck", "exec sleep 600");
    String held = awaitEvent("started");

    HttpResponse<String> r =
        serve.postWithToken("/api/force-release", "{\"requestId\":\"" + held + "\",\"kill\":true}");

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(ServeProcess.JSON.readTree(r.body()).get("killed").asText()).isEqualTo("SIGTERM");
    assertThat(run.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(serve.pool("p").get("used").asInt()).isZero();
  }

  @Test
  void anUnknownRequestIsNotFound() throws Exception {
    HttpResponse<String> r = serve.postWithToken("/api/cancel", "{\"requestId\":\"r999\"}");

    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(r.body()).contains("unknown_request", "r999");
  }

  @Test
  void theTokenFileIsMadeReadableByItsOwnerOnly() throws Exception {
    Path file = home.resolve("serve.token");

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(Files.readString(file).strip()).isEqualTo(serve.token).hasSizeGreaterThan(30);
  }

  @Test
  void openingTheAddressWithTheTokenSetsAStrictCookieAndDropsTheTokenFromTheAddress()
      throws Exception {
    HttpResponse<String> r =
        serve.http.send(
            serve.request("/?token=" + serve.token).build(), HttpResponse.BodyHandlers.ofString());

    assertThat(r.statusCode()).isEqualTo(303);
    assertThat(r.headers().firstValue("Location")).hasValue("/");
    String cookie = r.headers().firstValue("Set-Cookie").orElseThrow();
    assertThat(cookie)
        .startsWith("sluice-serve-" + serve.url.getPort() + "=" + serve.token)
        .contains("HttpOnly", "SameSite=Strict");

    HttpResponse<String> wrong =
        serve.http.send(
            serve.request("/?token=wrong").build(), HttpResponse.BodyHandlers.ofString());
    assertThat(wrong.statusCode()).isEqualTo(401);
  }

  @Test
  void theCookieActsAsTheTokenForTheSameOrigin() throws Exception {
    String cookie = "sluice-serve-" + serve.url.getPort() + "=" + serve.token;
    String origin = "http://127.0.0.1:" + serve.url.getPort();

    HttpResponse<String> r =
        serve.post(
            "/api/capacity", "{\"pool\":\"p\",\"capacity\":2}", "Cookie", cookie, "Origin", origin);

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(serve.pool("p").get("capacity").asInt()).isEqualTo(2);
  }
}
