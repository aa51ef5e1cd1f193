/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The cases of {@code sluice serve}'s workflow API over real HTTP, against a real server process
 * and a workflow store written by another JVM ({@link WorkflowWriter}), on each store the console
 * shows: the executions appear on the event stream, in the listing and in {@code /metrics}, one
 * execution shows its steps, timer and failure, and cancel needs the token. A subclass starts
 * {@link #serve} on its store and writes the executions into it.
 */
abstract class ServeWorkflowCases {
  ServeProcess serve;

  /** Writes the executions into the console's store from another JVM, and waits for it. */
  abstract void writeWorkflows() throws Exception;

  /** Removes the store once the server stopped; nothing by default. */
  void dropStore() throws Exception {}

  @AfterEach
  void stop() throws Exception {
    try {
      if (serve != null) {
        serve.close();
      }
    } finally {
      dropStore();
    }
  }

  /** Runs {@link WorkflowWriter} with {@code args} in its own JVM and waits for it to finish. */
  static void runWriter(String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path")));
    cmd.add(WorkflowWriter.class.getName());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    assertThat(p.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    String out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))
            .lines()
            .reduce("", (a, b) -> a + b + "\n");
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("written");
  }

  private static JsonNode awaitData(Iterator<String> lines, Predicate<JsonNode> wanted)
      throws Exception {
    return ServeProcess.awaitData(lines, wanted);
  }

  @Test
  void executionsWrittenByAnotherProcessAppearOnTheStreamAndInTheListing() throws Exception {
    HttpResponse<Stream<String>> r =
        serve.http.send(
            serve.request("/api/workflows/events").build(), HttpResponse.BodyHandlers.ofLines());
    assertThat(r.statusCode()).isEqualTo(200);
    Iterator<String> lines = r.body().iterator();
    JsonNode first = awaitData(lines, s -> true);
    assertThat(first.get("counts").get("waiting").asLong()).isZero();

    writeWorkflows();
    JsonNode changed =
        awaitData(
            lines,
            s ->
                s.get("counts").get("waiting").asLong() == 1
                    && s.get("counts").get("failed").asLong() == 1);
    assertThat(changed.get("counts").get("queued").asLong()).isZero();
    r.body().close();

    JsonNode list = serve.get("/api/workflows");
    assertThat(list.get("executions").findValuesAsText("id"))
        .containsExactlyInAnyOrder("order-42", "refund-7");
    assertThat(list.get("canAct").asBoolean()).isFalse();
    JsonNode waiting = serve.get("/api/workflows?status=waiting");
    assertThat(waiting.get("executions").findValuesAsText("id")).containsExactly("order-42");
    JsonNode search = serve.get("/api/workflows?q=ref");
    assertThat(search.get("executions").findValuesAsText("id")).containsExactly("refund-7");
    JsonNode page = serve.get("/api/workflows?limit=1");
    assertThat(page.get("executions")).hasSize(1);
    JsonNode rest = serve.get("/api/workflows?limit=1&cursor=" + page.get("nextCursor").asText());
    assertThat(rest.get("executions")).hasSize(1);
    assertThat(rest.has("nextCursor")).isFalse();
  }

  @Test
  void oneExecutionShowsItsStepsTimerAndFailure() throws Exception {
    writeWorkflows();
    JsonNode order = serve.get("/api/workflows/execution?id=order-42");
    assertThat(order.get("status").asText()).isEqualTo("waiting");
    assertThat(order.get("steps").findValuesAsText("key")).containsExactly("charge", "cool-off");
    assertThat(order.get("steps").get(0).get("value").asText()).isEqualTo("\"paid o-42\"");
    assertThat(order.get("steps").get(1).get("outcome").asText()).isEqualTo("sleep");
    assertThat(order.get("timer").get("dueAt").asText()).isNotEmpty();

    JsonNode refund = serve.get("/api/workflows/execution?id=refund-7");
    assertThat(refund.get("status").asText()).isEqualTo("failed");
    assertThat(refund.get("failure").get("message").asText()).contains("card expired for o-7");
    assertThat(refund.get("steps").get(0).get("outcome").asText()).isEqualTo("failed");

    HttpResponse<String> missing =
        serve.http.send(
            serve.request("/api/workflows/execution?id=nope").build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(missing.statusCode()).isEqualTo(404);
    HttpResponse<String> bad =
        serve.http.send(
            serve.request("/api/workflows?status=sleeping").build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.body()).contains("sleeping");
  }

  @Test
  void metricsShowTheExecutionsAnotherProcessRanByStatus() throws Exception {
    writeWorkflows();
    HttpResponse<String> r =
        serve.http.send(serve.request("/metrics").build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    String text = r.body();
    String name = "sluice_workflow_executions";
    assertThat(ServeMetricsProcessTest.value(text, name, "status=\"waiting\"")).isEqualTo(1.0);
    assertThat(ServeMetricsProcessTest.value(text, name, "status=\"failed\"")).isEqualTo(1.0);
    assertThat(ServeMetricsProcessTest.value(text, name, "status=\"completed\"")).isZero();
    assertThat(ServeMetricsProcessTest.value(text, name, "status=\"queued\"")).isZero();
    // The console's runtime never runs a step, so it has no step meters to show.
    assertThat(text).doesNotContain("sluice_workflow_steps");
  }

  @Test
  void cancelNeedsTheTokenAndTheSameOrigin() throws Exception {
    writeWorkflows();
    String body = "{\"id\":\"order-42\"}";
    HttpResponse<String> anonymous = serve.post("/api/workflows/cancel", body);
    assertThat(anonymous.statusCode()).as(anonymous.body()).isEqualTo(401);
    HttpResponse<String> foreign = serve.postFromForeignOrigin("/api/workflows/cancel", body);
    assertThat(foreign.statusCode()).as(foreign.body()).isEqualTo(403);
    assertThat(serve.get("/api/workflows/execution?id=order-42").get("status").asText())
        .isEqualTo("waiting");

    HttpResponse<String> done = serve.postWithToken("/api/workflows/cancel", body);
    assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
    JsonNode answer = ServeProcess.JSON.readTree(done.body());
    assertThat(answer.get("cancelled").asBoolean()).isTrue();
    assertThat(answer.get("status").asText()).isEqualTo("cancelled");
    assertThat(serve.get("/api/workflows/execution?id=order-42").has("timer")).isFalse();

    HttpResponse<String> again = serve.postWithToken("/api/workflows/cancel", body);
    assertThat(ServeProcess.JSON.readTree(again.body()).get("cancelled").asBoolean()).isFalse();
    HttpResponse<String> unknown =
        serve.postWithToken("/api/workflows/cancel", "{\"id\":\"nope\"}");
    assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(404);
  }
}
