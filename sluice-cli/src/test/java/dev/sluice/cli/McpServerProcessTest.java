/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice mcp} as an agent starts it: the real command in a JVM of its own, spoken to over
 * stdio by the MCP SDK's own synchronous client.
 */
class McpServerProcessTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final Duration TIMEOUT = Duration.ofSeconds(SluiceProcesses.TIMEOUT_SECONDS);

  static final Set<String> TOOLS =
      Set.of(
          "acquire",
          "claim",
          "decline",
          "rejoin",
          "cancel",
          "start",
          "mark-started",
          "heartbeat",
          "release",
          "pending",
          "status",
          "diagnose");

  @TempDir Path home;
  SluiceProcesses sluice;
  final List<McpSyncClient> clients = new ArrayList<>();

  @AfterEach
  void closeAll() {
    clients.forEach(McpSyncClient::close);
    if (sluice != null) {
      sluice.close();
    }
  }

  SluiceProcesses sluice() {
    if (sluice == null) {
      sluice = new SluiceProcesses(home);
    }
    return sluice;
  }

  /** Starts {@code sluice mcp} for a client named {@code name} and initializes the session. */
  McpSyncClient agent(String name) {
    List<String> cmd = sluice().command("mcp");
    ServerParameters server =
        ServerParameters.builder(cmd.get(0)).args(cmd.subList(1, cmd.size())).build();
    StdioClientTransport transport =
        new StdioClientTransport(server, new JacksonMcpJsonMapper(new ObjectMapper()));
    McpSyncClient client =
        McpClient.sync(transport)
            .clientInfo(new McpSchema.Implementation(name, "1.0"))
            .requestTimeout(TIMEOUT)
            .initializationTimeout(TIMEOUT)
            .build();
    clients.add(client);
    client.initialize();
    return client;
  }

  static JsonNode call(McpSyncClient client, String tool, Map<String, Object> args) {
    CallToolResult r = client.callTool(new CallToolRequest(tool, args));
    assertThat(r.isError()).as("%s %s: %s", tool, args, r).isNotEqualTo(Boolean.TRUE);
    return structured(r);
  }

  static JsonNode structured(CallToolResult r) {
    JsonNode node = JSON.valueToTree(r.structuredContent());
    // The same object as text, for clients that read only text content.
    String text = ((McpSchema.TextContent) r.content().get(0)).text();
    try {
      assertThat(JSON.readTree(text)).isEqualTo(node);
    } catch (Exception e) {
      throw new AssertionError(text, e);
    }
    return node;
  }

  JsonNode status() {
    try {
      SluiceProcesses.Result r = sluice().run("--json", "status");
      assertThat(r.exit()).as(r.toString()).isZero();
      return JSON.readTree(r.out());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  static JsonNode pool(JsonNode status, String name) {
    for (JsonNode p : status.get("pools")) {
      if (p.get("name").asText().equals(name)) {
        return p;
      }
    }
    throw new AssertionError("no pool " + name + " in " + status);
  }

  void poolOfOne() throws Exception {
    SluiceProcesses.Result r = sluice().run("pool", "set", "p", "--capacity", "1");
    assertThat(r.exit()).as(r.toString()).isZero();
  }

  @Test
  void listsTheTwelveAgentVerbsWithSchemasAndNoAgentArgument() {
    List<McpSchema.Tool> tools = agent("lister").listTools().tools();
    assertThat(tools.stream().map(McpSchema.Tool::name).collect(Collectors.toSet()))
        .isEqualTo(TOOLS);
    for (McpSchema.Tool t : tools) {
      Map<String, Object> schema = t.inputSchema();
      assertThat(schema).as(t.name()).containsEntry("type", "object");
      assertThat(schema).as(t.name()).containsEntry("additionalProperties", false);
      assertThat(t.description()).as(t.name()).isNotBlank();
      @SuppressWarnings("unchecked")
      Map<String, Map<String, Object>> props =
          (Map<String, Map<String, Object>>) schema.get("properties");
      assertThat(props.keySet()).as(t.name()).noneMatch(k -> k.toLowerCase().contains("agent"));
      props.forEach(
          (k, v) -> {
            assertThat(v).as(t.name() + "." + k).containsKey("type").containsKey("description");
          });
    }
    JsonNode acquire = schemaOf(tools, "acquire");
    assertThat(acquire.get("required")).containsExactly(JSON.valueToTree("op"));
    assertThat(acquire.at("/properties/weight/type").asText()).isEqualTo("integer");
    assertThat(acquire.at("/properties/weight/minimum").asInt()).isEqualTo(1);
    assertThat(acquire.at("/properties/pool/pattern").asText()).startsWith("^[A-Za-z0-9]");
    JsonNode status = schemaOf(tools, "status");
    assertThat(status.at("/properties/detail/enum"))
        .containsExactly(JSON.valueToTree("full"), JSON.valueToTree("summary"));
    assertThat(schemaOf(tools, "start").get("required"))
        .containsExactlyInAnyOrder(JSON.valueToTree("permitToken"), JSON.valueToTree("pid"));
  }

  static JsonNode schemaOf(List<McpSchema.Tool> tools, String name) {
    return JSON.valueToTree(
        tools.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow().inputSchema());
  }

  @Test
  void aHolderShowsInStatusTheNextAgentQueuesAndReleaseHandsTheSlotOver() throws Exception {
    poolOfOne();
    McpSyncClient a = agent("agent-a");
    McpSyncClient b = agent("agent-b");

    JsonNode granted = call(a, "acquire", Map.of("pool", "p", "op", "build-1", "label", "make"));
    assertThat(granted.get("state").asText()).isEqualTo("granted");
    String agentA = granted.get("agentId").asText();
    assertThat(agentA).matches("agent-a/[0-9a-f]{8}");

    JsonNode holders = pool(call(a, "status", Map.of()), "p").get("holders");
    assertThat(holders).hasSize(1);
    assertThat(holders.get(0).get("agentId").asText()).isEqualTo(agentA);
    assertThat(holders.get(0).get("label").asText()).isEqualTo("make");

    JsonNode queued = call(b, "acquire", Map.of("pool", "p", "op", "test-1"));
    assertThat(queued.get("state").asText()).isEqualTo("queued");
    assertThat(queued.get("position").asInt()).isEqualTo(1);
    assertThat(queued.get("agentId").asText()).matches("agent-b/[0-9a-f]{8}");

    JsonNode released =
        call(a, "release", Map.of("permitToken", granted.get("permitToken").asText()));
    assertThat(released.get("state").asText()).isEqualTo("released");
    assertThat(released.get("lost").asBoolean()).isFalse();

    // Asking again under the same op finds the offer the release made and claims it.
    JsonNode handedOver =
        call(b, "acquire", Map.of("pool", "p", "op", "test-1", "waitSeconds", 60));
    assertThat(handedOver.get("state").asText()).isEqualTo("granted");
    assertThat(handedOver.get("requestId").asText()).isEqualTo(queued.get("requestId").asText());
    JsonNode after = pool(status(), "p");
    assertThat(after.get("holders").get(0).get("agentId").asText())
        .isEqualTo(handedOver.get("agentId").asText());
    assertThat(after.get("queued").asInt()).isZero();
  }

  @Test
  void badArgumentsAreRefusedNamingFieldValueAndRuleWithNothingQueued() throws Exception {
    poolOfOne();
    McpSyncClient a = agent("careless");
    JsonNode before = status();

    JsonNode weight = refused(a, "acquire", Map.of("pool", "p", "op", "x", "weight", 0));
    assertThat(weight.get("field").asText()).isEqualTo("weight");
    assertThat(weight.get("value").asText()).isEqualTo("0");
    assertThat(weight.get("allowed").asText()).isEqualTo("a whole number from 1 to 1000000");
    assertThat(weight.get("message").asText())
        .isEqualTo("weight must be a whole number from 1 to 1000000, was 0");

    JsonNode text = refused(a, "acquire", Map.of("op", "x", "weight", "two"));
    assertThat(text.get("field").asText()).isEqualTo("weight");
    assertThat(text.get("value").asText()).isEqualTo("'two'");

    JsonNode missing = refused(a, "acquire", Map.of("pool", "p"));
    assertThat(missing.get("field").asText()).isEqualTo("op");
    assertThat(missing.get("value").asText()).isEqualTo("missing");

    JsonNode impostor = refused(a, "acquire", Map.of("op", "x", "agentId", "someone-else"));
    assertThat(impostor.get("field").asText()).isEqualTo("agentId");
    assertThat(impostor.get("allowed").asText()).contains("the agent is the MCP session's");

    JsonNode pool = refused(a, "acquire", Map.of("op", "x", "pool", "-p"));
    assertThat(pool.get("field").asText()).isEqualTo("pool");

    JsonNode detail = refused(a, "status", Map.of("detail", "everything"));
    assertThat(detail.get("allowed").asText()).isEqualTo("one of full, summary");

    JsonNode gate = refused(a, "claim", Map.of("offerToken", "no-such-token"));
    assertThat(gate.get("error").asText()).isEqualTo("unknown_token");

    assertThat(status()).isEqualTo(before);
    JsonNode pending = call(a, "pending", Map.of());
    for (String list : List.of("offers", "queued", "paused", "held")) {
      assertThat(pending.get(list)).as(list).isEmpty();
    }
  }

  static JsonNode refused(McpSyncClient client, String tool, Map<String, Object> args) {
    CallToolResult r = client.callTool(new CallToolRequest(tool, args));
    assertThat(r.isError()).as("%s %s: %s", tool, args, r).isTrue();
    JsonNode error = structured(r);
    assertThat(error.get("message").asText()).isNotBlank();
    if (error.get("error").asText().equals("invalid_argument")) {
      assertThat(error.get("message").asText())
          .startsWith(error.get("field").asText() + " must be ");
    }
    return error;
  }

  @Test
  void whenTheSessionEndsItsRequestsAreCancelledAndItsUntrackedPermitsReleased() throws Exception {
    poolOfOne();
    McpSyncClient a = agent("leaver");
    McpSyncClient b = agent("stayer");
    JsonNode held = call(a, "acquire", Map.of("pool", "p", "op", "work"));
    String token = held.get("permitToken").asText();
    JsonNode started = call(a, "mark-started", Map.of("permitToken", token));
    assertThat(started.get("phase").asText()).isEqualTo("running_untracked");
    JsonNode second = call(a, "acquire", Map.of("op", "more", "pool", "p"));
    assertThat(second.get("state").asText()).isEqualTo("queued");
    JsonNode waiting = call(b, "acquire", Map.of("pool", "p", "op", "next"));
    assertThat(waiting.get("state").asText()).isEqualTo("queued");
    assertThat(waiting.get("position").asInt()).isEqualTo(2);

    // The SDK's client ends a session by stopping the server (SIGTERM) once it returns.
    clients.remove(a);
    a.closeGracefully();

    JsonNode p = pool(status(), "p");
    assertThat(p.get("holders")).isEmpty();
    assertThat(p.get("queue")).isEmpty();
    // The slot went to the agent that stayed, as an offer it can claim.
    assertThat(p.get("offers")).hasSize(1);
    assertThat(p.get("offers").get(0).get("agentId").asText())
        .isEqualTo(waiting.get("agentId").asText());
    JsonNode granted = call(b, "acquire", Map.of("pool", "p", "op", "next"));
    assertThat(granted.get("state").asText()).isIn("offered", "granted");
  }

  @Test
  void theServerRenewsAnUntrackedPermitWhileTheSessionLives() throws Exception {
    poolOfOne();
    SluiceProcesses.Result lease = sluice().run("config", "set", "untracked.lease", "6s");
    assertThat(lease.exit()).as(lease.toString()).isZero();
    McpSyncClient a = agent("worker");
    McpSyncClient b = agent("waiter");
    JsonNode held = call(a, "acquire", Map.of("pool", "p", "op", "long-build"));
    String token = held.get("permitToken").asText();
    call(a, "mark-started", Map.of("permitToken", token));

    // The gate's own wait, two leases long: a permit nobody renewed would have lapsed within it
    // and its slot gone to this request. Renewals come every third of a lease (2 s), so a renewal
    // may be late by most of a lease (4 s) on a loaded machine and the permit still holds.
    JsonNode waited = call(b, "acquire", Map.of("pool", "p", "op", "next", "waitSeconds", 12));
    assertThat(waited.get("state").asText()).isEqualTo("queued");

    JsonNode released = call(a, "release", Map.of("permitToken", token));
    assertThat(released.get("lost").asBoolean()).as(released.toString()).isFalse();
    assertThat(released.get("alreadyReleased").asBoolean()).isFalse();
  }
}
