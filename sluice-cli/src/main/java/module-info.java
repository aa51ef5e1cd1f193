/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The {@code sluice} command: parses arguments, prints answers and spawns commands; every gate
 * decision is {@link dev.sluice.gate.GateService}'s. Nothing is exported: the module is an
 * application, run as {@code dev.sluice.cli/dev.sluice.cli.Sluice}.
 */
module dev.sluice.cli {
  requires dev.sluice.gate;
  requires dev.sluice.sqlite;
  // Only for sluice serve's workflow views (--workflow-db, --workflow-pg).
  requires dev.sluice.workflow.sqlite;
  // Only for sluice pool's drain verbs on a PostgreSQL pool (--postgres-url), and --workflow-pg.
  requires dev.sluice.postgres;
  requires org.postgresql.jdbc;
  requires info.picocli;
  requires com.fasterxml.jackson.core;
  // Only for sluice mcp (package dev.sluice.cli.mcp): the MCP SDK and its Jackson binding.
  requires io.modelcontextprotocol.sdk.mcp.core;
  requires io.modelcontextprotocol.sdk.mcp.json.jackson2;
  requires com.fasterxml.jackson.databind;
  // Only for sluice top's live view (package dev.sluice.cli.top).
  requires org.jline.terminal;
  // Only for sluice serve's console (package dev.sluice.cli.serve).
  requires jdk.httpserver;
  // Only for sluice serve's /metrics: the meters and Micrometer's Prometheus registry.
  requires dev.sluice.micrometer;
  requires micrometer.registry.prometheus;
  // sun.misc.Signal, to forward SIGINT/SIGTERM to a spawned command's process group.
  requires jdk.unsupported;

  // picocli instantiates the commands and injects their options reflectively.
  opens dev.sluice.cli.command to
      info.picocli;
}
