/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.gate.GateService;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code sluice mcp}: the gate's agent verbs as Model Context Protocol tools over stdio, one
 * session per process. Every tool is the gate call the command's verb makes; the agent is the
 * session's (see {@link AgentSessions}), never a tool argument. Arguments are checked against the
 * tool's schema before the gate is asked anything.
 *
 * <p>{@link #serve} blocks until the client closes the server's stdin; tool calls run on the SDK's
 * threads meanwhile, each blocking for its gate call. Thread-safe.
 */
public final class GateMcpServer {
  private final GateService gate;
  private final String version;

  /**
   * Creates the server.
   *
   * @param gate the gate the tools call; the caller closes it after {@link #serve} returns
   * @param version the version {@code initialize} reports
   */
  public GateMcpServer(GateService gate, String version) {
    this.gate = gate;
    this.version = version;
  }

  /** The tools, in the order {@code tools/list} shows them. */
  static List<GateTool> tools(GateService gate, AgentSessions sessions) {
    List<GateTool> all = new ArrayList<>(AskTools.all(gate));
    all.addAll(HoldTools.all(gate, sessions));
    all.addAll(LookTools.all(gate));
    return List.copyOf(all);
  }

  /**
   * Speaks MCP on {@code in} and {@code out} until {@code in} ends, then ends the session's
   * business at the gate (see {@link AgentSessions#close()}). A client that stops the server with
   * SIGTERM or SIGINT instead (the SDK's own client does) gets the same end, from a shutdown hook.
   *
   * @throws InterruptedException if interrupted while serving; the session is ended all the same
   */
  public void serve(InputStream in, OutputStream out) throws InterruptedException {
    EndOfInput input = new EndOfInput(in);
    AgentSessions sessions = new AgentSessions(gate);
    Thread onSignal = new Thread(sessions::close, "sluice-mcp-end");
    Runtime.getRuntime().addShutdownHook(onSignal);
    McpSyncServer server = null;
    try {
      server = start(sessions, input, out);
      input.awaitEnd();
    } finally {
      sessions.close();
      try {
        Runtime.getRuntime().removeShutdownHook(onSignal);
      } catch (IllegalStateException shuttingDown) {
        // The hook runs (or ran) the same idempotent close.
      }
      if (server != null) {
        server.closeGracefully();
      }
    }
  }

  private McpSyncServer start(AgentSessions sessions, InputStream in, OutputStream out) {
    ObjectMapper json = new ObjectMapper();
    return McpServer.sync(new StdioServerTransportProvider(new JacksonMcpJsonMapper(json), in, out))
        .serverInfo("sluice", version)
        .instructions(
            "A machine-wide gate for heavy work shared by agents and people: acquire before a"
                + " build or test suite, start or mark-started when it begins, release when it"
                + " ends. Your agent id is this session's.")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
        // Each tool checks its arguments against the schema it advertises, so that a refusal
        // names the argument, the value and what is allowed.
        .validateToolInputs(false)
        .tools(specifications(tools(gate, sessions), sessions))
        .build();
  }

  private static List<SyncToolSpecification> specifications(
      List<GateTool> tools, AgentSessions sessions) {
    List<SyncToolSpecification> specs = new ArrayList<>();
    for (GateTool t : tools) {
      McpSchema.Tool tool =
          McpSchema.Tool.builder()
              .name(t.name())
              .description(t.description())
              .inputSchema(t.inputSchema())
              .annotations(
                  McpSchema.ToolAnnotations.builder()
                      .readOnlyHint(t.readOnly())
                      .destructiveHint(false)
                      .openWorldHint(false)
                      .build())
              .build();
      specs.add(
          SyncToolSpecification.builder()
              .tool(tool)
              .callHandler((exchange, request) -> call(t, sessions, exchange, request))
              .build());
    }
    return specs;
  }

  private static CallToolResult call(
      GateTool tool,
      AgentSessions sessions,
      McpSyncServerExchange exchange,
      CallToolRequest request) {
    try {
      return ToolResults.ok(tool.call(sessions.agentOf(exchange), request.arguments()));
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      return ToolResults.failure(e);
    }
  }
}
