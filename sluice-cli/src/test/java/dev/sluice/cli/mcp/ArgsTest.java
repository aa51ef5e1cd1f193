/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tool arguments checked against the params that also write the tools' schemas. */
class ArgsTest {
  static final List<Param> PARAMS =
      List.of(
          Param.text("op", true, 1, 8, "key"),
          Param.whole("weight", false, 1, 10, "units"),
          Param.flag("group", "flag"),
          Param.oneOf("detail", List.of("full", "summary"), "how much"),
          Param.texts("tokens", 2, "tokens"),
          Param.text("pool", false, 1, 64, "pool").matching("[a-z]+"));

  static Args check(Map<String, Object> given) {
    return Args.check("tool", PARAMS, given);
  }

  static BadArgument refusal(Map<String, Object> given) {
    try {
      check(given);
    } catch (BadArgument e) {
      return e;
    }
    throw new AssertionError("accepted " + given);
  }

  @Test
  void acceptsWhatTheSchemaAllowsAndDefaultsWhatIsLeftOut() {
    Args a =
        check(
            Map.of(
                "op",
                "k",
                "weight",
                3.0,
                "group",
                true,
                "detail",
                "summary",
                "tokens",
                List.of("t1"),
                "pool",
                "build"));
    assertThat(a.text("op")).isEqualTo("k");
    assertThat(a.whole("weight", 1)).isEqualTo(3);
    assertThat(a.flag("group")).isTrue();
    assertThat(a.text("detail", "full")).isEqualTo("summary");
    assertThat(a.texts("tokens")).containsExactly("t1");
    Args least = check(Map.of("op", "k"));
    assertThat(least.whole("weight", 1)).isEqualTo(1);
    assertThat(least.flag("group")).isFalse();
    assertThat(least.texts("tokens")).isEmpty();
    assertThat(least.has("pool")).isFalse();
  }

  @Test
  void eachRefusalNamesTheFieldTheValueAndWhatIsAllowed() {
    assertThat(refusal(Map.of("op", "k", "weight", 2.5)).getMessage())
        .isEqualTo("weight must be a whole number from 1 to 10, was 2.5");
    assertThat(refusal(Map.of("op", "k", "weight", 11)).getMessage())
        .isEqualTo("weight must be a whole number from 1 to 10, was 11");
    assertThat(refusal(Map.of("op", "much too long")).getMessage())
        .isEqualTo("op must be a string of 1 to 8 characters, was 'much too long'");
    assertThat(refusal(Map.of()).getMessage())
        .isEqualTo("op must be a string of 1 to 8 characters (required), was missing");
    assertThat(refusal(Map.of("op", "k", "group", "yes")).allowed()).isEqualTo("true or false");
    assertThat(refusal(Map.of("op", "k", "detail", "all")).allowed())
        .isEqualTo("one of full, summary");
    assertThat(refusal(Map.of("op", "k", "tokens", List.of("a", "b", "c"))).field())
        .isEqualTo("tokens");
    assertThat(refusal(Map.of("op", "k", "pool", "Build")).allowed())
        .isEqualTo("a string matching [a-z]+");
    assertThat(refusal(Map.of("op", "a\tb")).allowed()).endsWith("without control characters");
    BadArgument unknown = refusal(Map.of("op", "k", "agent", "x"));
    assertThat(unknown.field()).isEqualTo("agent");
    assertThat(unknown.shownValue()).isEqualTo("'x'");
    assertThat(unknown.allowed()).startsWith("left out (tool takes op, weight, group");
  }

  @Test
  void theSchemaStatesTheSameRules() {
    GateTool tool = new GateTool("tool", "what", PARAMS, false, (agent, a) -> null);
    Map<String, Object> schema = tool.inputSchema();
    assertThat(schema).containsEntry("required", List.of("op"));
    assertThat(schema).containsEntry("additionalProperties", false);
    @SuppressWarnings("unchecked")
    Map<String, Map<String, Object>> props =
        (Map<String, Map<String, Object>>) schema.get("properties");
    assertThat(props.get("weight")).containsEntry("minimum", 1L).containsEntry("maximum", 10L);
    assertThat(props.get("op")).containsEntry("minLength", 1L).containsEntry("maxLength", 8L);
    assertThat(props.get("detail")).containsEntry("enum", List.of("full", "summary"));
    assertThat(props.get("pool")).containsEntry("pattern", "^[a-z]+$");
    assertThat(props.get("tokens")).containsEntry("maxItems", 2L);
  }
}
