/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.GateJson;
import dev.sluice.cli.JsonObject;
import dev.sluice.gate.GateService;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * What every verb shares: the global options, the lazily opened gate (closed when the verb
 * returns), and printing an answer as JSON or as text. Not thread-safe: one invocation, one thread.
 */
abstract class Verb implements Callable<Integer> {
  @Spec CommandSpec spec;

  /** Does the verb's work and returns its exit status. */
  abstract int execute() throws Exception;

  @Override
  public final Integer call() throws Exception {
    try {
      return execute();
    } finally {
      root().closeGate();
    }
  }

  SluiceCommand root() {
    return (SluiceCommand) spec.root().userObject();
  }

  GateService gate() {
    return root().gate();
  }

  boolean json() {
    return root().json();
  }

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }

  /** Prints {@code json} on one line with {@code --json}, else the text lines. */
  void print(JsonObject json, List<String> text) {
    PrintWriter out = out();
    if (json()) {
      out.println(GateJson.line(json));
    } else {
      text.forEach(out::println);
    }
    out.flush();
  }

  void print(JsonObject json, String text) {
    print(json, List.of(text));
  }

  /** The agent id; a usage error naming the flag and the variable when there is none. */
  String agent() {
    String agent = root().agentOrNull();
    if (agent == null) {
      throw new ParameterException(
          spec.commandLine(),
          spec.name() + " needs an agent id: give --agent ID or set SLUICE_AGENT_ID");
    }
    return agent;
  }

  /** Who an operator's action is recorded as: the agent, else {@code $USER}. */
  String actor() {
    return Identity.actor(root().agentOption(), root().env());
  }
}
