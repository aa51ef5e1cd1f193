/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.mcp;

import dev.sluice.cli.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One agent verb of the gate as an MCP tool: its name, what it does, its arguments and the gate
 * call it makes. Immutable and thread-safe; {@link #call} blocks as its gate call does.
 *
 * @param name the tool's name, the command's verb ({@code mark-started})
 * @param description what it does and answers, for the agent
 * @param params its arguments; none of them names the agent, which is the session's
 * @param readOnly whether it only looks (pending, status, diagnose)
 * @param action the gate call
 */
record GateTool(
    String name, String description, List<Param> params, boolean readOnly, Action action) {

  /** What a tool does once its arguments are checked. */
  @FunctionalInterface
  interface Action {
    /**
     * Calls the gate as {@code agent} and returns the answer as the command's {@code --json} prints
     * it.
     *
     * @throws Exception a {@link dev.sluice.gate.GateException} when the gate refuses
     */
    JsonObject call(String agent, Args args) throws Exception;
  }

  GateTool {
    params = List.copyOf(params);
  }

  /** The input schema: an object of {@link #params}, required ones listed, nothing else allowed. */
  Map<String, Object> inputSchema() {
    Map<String, Object> properties = new LinkedHashMap<>();
    params.forEach(p -> properties.put(p.name(), p.schema()));
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", properties);
    schema.put("required", params.stream().filter(Param::required).map(Param::name).toList());
    schema.put("additionalProperties", false);
    return schema;
  }

  /** Checks {@code arguments} and calls the gate. */
  JsonObject call(String agent, Map<String, Object> arguments) throws Exception {
    return action.call(agent, Args.check(name, params, arguments));
  }
}
