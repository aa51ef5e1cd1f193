/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.cli.SluiceProcesses.Result;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice serve}'s event stream, its refusal of other hosts and of bad {@code --listen}
 * values, and its reads beyond loopback, over real HTTP against a real server process.
 */
class ServeStreamProcessTest {
  @TempDir Path home;

  /** The first snapshot on the stream that {@code wanted} accepts; fails after the timeout. */
  private static JsonNode awaitSnapshot(Iterator<String> lines, Predicate<JsonNode> wanted)
      throws Exception {
    return ServeProcess.awaitData(lines, wanted);
  }

  private static boolean capacityIs(JsonNode snapshot, int capacity) {
    for (JsonNode p : snapshot.get("pools")) {
      if (p.get("name").asText().equals("p") && p.get("capacity").asInt() == capacity) {
        return true;
      }
    }
    return false;
  }

  @Test
  void theStreamStartsWithTheWholeViewAndCarriesAChangeMadeByAnotherProcess() throws Exception {
    SluiceProcesses sluice = new SluiceProcesses(home);
    assertThat(sluice.run("pool", "set", "p", "--capacity", "1").exit()).isZero();
    try (ServeProcess serve = ServeProcess.start(home, "127.0.0.1:0")) {
      HttpResponse<Stream<String>> r =
          serve.http.send(
              serve.request("/api/events").build(), HttpResponse.BodyHandlers.ofLines());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type"))
          .hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
      Iterator<String> lines = r.body().iterator();

      JsonNode first = awaitSnapshot(lines, s -> true);
      assertThat(first.get("reset").asBoolean()).isTrue();
      assertThat(capacityIs(first, 1)).isTrue();

      Result set = sluice.run("pool", "set", "p", "--capacity", "4", "--reason", "growth");
      assertThat(set.exit()).as(set.toString()).isZero();
      JsonNode changed = awaitSnapshot(lines, s -> capacityIs(s, 4));
      assertThat(changed.get("reset").asBoolean()).isFalse();
      assertThat(changed.get("events").findValuesAsText("type")).contains("capacity_changed");
      r.body().close();
    } finally {
      sluice.close();
    }
  }

  @Test
  void aRequestNamingAnotherHostIsRefused() throws Exception {
    try (ServeProcess serve = ServeProcess.start(home, "127.0.0.1:0");
        Socket s = new Socket("127.0.0.1", serve.url.getPort())) {
      OutputStream out = s.getOutputStream();
      out.write(
          ("GET /api/status HTTP/1.1\r\nHost: rebound.example:"
                  + serve.url.getPort()
                  + "\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      BufferedReader in =
          new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
      assertThat(in.readLine()).startsWith("HTTP/1.1 421");
    }
  }

  @Test
  void beyondLoopbackEvenReadsNeedTheToken() throws Exception {
    try (ServeProcess serve = ServeProcess.start(home, "0.0.0.0:0")) {
      HttpResponse<String> anonymous =
          serve.http.send(
              serve.request("/api/status").build(), HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> page =
          serve.http.send(serve.request("/").build(), HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> bearer =
          serve.http.send(
              serve.request("/api/status").header("Authorization", "Bearer " + serve.token).build(),
              HttpResponse.BodyHandlers.ofString());

      assertThat(anonymous.statusCode()).isEqualTo(401);
      assertThat(page.statusCode()).isEqualTo(401);
      assertThat(bearer.statusCode()).as(bearer.body()).isEqualTo(200);
      assertThat(ServeProcess.JSON.readTree(bearer.body()).get("canAct").asBoolean()).isTrue();
    }
  }

  @Test
  void aBadListenValueIsRefusedByName() throws Exception {
    SluiceProcesses sluice = new SluiceProcesses(home);
    try {
      for (String bad : new String[] {"nonsense", "127.0.0.1:99999", "127.0.0.1:http", "::1:80"}) {
        Result r = sluice.run("serve", "--listen", bad);
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).as(bad).contains("--listen '" + bad + "'");
      }
    } finally {
      sluice.close();
    }
  }

  @Test
  void theConsolePageAndItsFilesAreServedFromTheJar() throws Exception {
    try (ServeProcess serve = ServeProcess.start(home, "127.0.0.1:0")) {
      HttpResponse<String> page =
          serve.http.send(serve.request("/").build(), HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> script =
          serve.http.send(
              serve.request("/console.js").build(), HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> missing =
          serve.http.send(serve.request("/nothing").build(), HttpResponse.BodyHandlers.ofString());

      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.body()).contains("<title>sluice console</title>");
      assertThat(page.headers().firstValue("Content-Security-Policy")).isPresent();
      assertThat(script.body()).contains("EventSource('/api/events')");
      assertThat(missing.statusCode()).isEqualTo(404);
    }
  }
}
