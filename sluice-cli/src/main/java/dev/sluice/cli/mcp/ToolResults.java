/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.mcp;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.SluiceException;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.JsonObject;
import dev.sluice.gate.ConfigFileException;
import dev.sluice.gate.GateException;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Turns a tool's answer or failure into a call result: the JSON object the command's {@code --json}
 * prints, both as structured content and as its text. A refusal is a tool error ({@code isError})
 * with {@code {"error": code, "message": ...}}, the codes the command uses ({@code unknown_token},
 * {@code not_owner}, ...) plus {@code invalid_argument} with {@code field}, {@code value} and
 * {@code allowed}. Stateless and thread-safe.
 */
final class ToolResults {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};

  private ToolResults() {}

  /** A successful answer. */
  static CallToolResult ok(JsonObject answer) {
    return result(answer, false);
  }

  /** A failure: a refusal or bad argument as a tool error, anything else as an internal one. */
  static CallToolResult failure(Throwable e) {
    return result(describe(e), true);
  }

  static JsonObject describe(Throwable e) {
    if (e instanceof BadArgument b) {
      return GateJson.error("invalid_argument", b.getMessage())
          .put("field", b.field())
          .put("value", b.shownValue())
          .put("allowed", b.allowed());
    }
    if (e instanceof GateException g) {
      JsonObject o = GateJson.error(g.code().wireName(), g.getMessage());
      g.loss().ifPresent(l -> o.put("reason", l.wireName()).put("lost", true));
      return o;
    }
    if (e instanceof IllegalArgumentException) {
      // The gate's own checks (AcquireRequest, JobRef) name the field, the value and the rule.
      return GateJson.error("invalid_argument", e.getMessage());
    }
    if (e instanceof ConfigFileException) {
      return GateJson.error("config", e.getMessage());
    }
    if (e instanceof SluiceException || e instanceof UncheckedIOException) {
      return GateJson.error("store", e.getMessage());
    }
    return GateJson.error("internal", String.valueOf(e));
  }

  private static CallToolResult result(JsonObject answer, boolean error) {
    String text = GateJson.line(answer);
    Map<String, Object> structured;
    try {
      structured = JSON.readValue(text, OBJECT);
    } catch (java.io.IOException e) {
      throw new UncheckedIOException(e);
    }
    return CallToolResult.builder()
        .structuredContent(structured)
        .addTextContent(text)
        .isError(error)
        .build();
  }
}
