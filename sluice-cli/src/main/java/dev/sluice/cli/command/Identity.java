/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import java.util.Map;

/**
 * Who an invocation acts as: the agent id from {@code --agent} or {@code $SLUICE_AGENT_ID}, and for
 * operators and people running commands, their user name when there is no agent id. Stateless and
 * thread-safe; never blocks.
 */
final class Identity {
  private Identity() {}

  /** The {@code --agent} value, else {@code $SLUICE_AGENT_ID}, else {@code null}. */
  static String agentOrNull(String option, Map<String, String> env) {
    if (option != null && !option.isBlank()) {
      return option;
    }
    String fromEnv = env.get("SLUICE_AGENT_ID");
    return fromEnv == null || fromEnv.isBlank() ? null : fromEnv;
  }

  /** The agent, else {@code $USER}, else the JVM's user name. */
  static String actor(String option, Map<String, String> env) {
    String agent = agentOrNull(option, env);
    if (agent != null) {
      return agent;
    }
    String user = env.get("USER");
    return user == null || user.isBlank() ? System.getProperty("user.name", "unknown") : user;
  }
}
