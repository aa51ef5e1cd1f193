/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.ExitCode;
import dev.sluice.cli.mcp.GateMcpServer;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import picocli.CommandLine.Command;

/**
 * {@code sluice mcp}: a Model Context Protocol server on stdin and stdout for one coding agent,
 * exposing the agent verbs as tools (see {@link GateMcpServer}). Runs until the client closes its
 * stdin, then cancels the session's waiting requests and releases its permits that no process group
 * holds. Not thread-safe: one invocation, one thread (the SDK's threads serve the calls).
 */
@Command(
    name = "mcp",
    header = "Serve the agent verbs as MCP tools on stdin/stdout, for a coding agent.",
    mixinStandardHelpOptions = true,
    description = {
      "Speak the Model Context Protocol on stdin and stdout: acquire, claim, decline, rejoin,"
          + " cancel, start, mark-started, heartbeat, release, pending, status and diagnose as"
          + " tools. The agent id is the client's name and a random id of the session, never a"
          + " tool argument (--agent is ignored).",
      "While the session lives the server renews its untracked permits (mark-started). When the"
          + " client closes stdin, the session's waiting requests are cancelled and its permits"
          + " released, except those bound to a process group by start, which end with it.",
      "Start it from an agent's MCP configuration: {\"command\": \"sluice\", \"args\": [\"mcp\"]}."
    })
final class McpCommand extends Verb {
  @Override
  int execute() throws InterruptedException {
    // The raw descriptors: stdout is the protocol's alone, and System.out may be buffered or
    // replaced by a library that prints.
    new GateMcpServer(gate(), VersionProvider.number())
        .serve(new FileInputStream(FileDescriptor.in), new FileOutputStream(FileDescriptor.out));
    return ExitCode.OK.code();
  }
}
