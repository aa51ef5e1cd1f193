/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.SluiceException;
import dev.sluice.StaleDrainException;
import dev.sluice.cli.ExitCode;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.JsonObject;
import dev.sluice.gate.ConfigFileException;
import dev.sluice.gate.GateException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Arrays;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Turns failures into the documented exit statuses and messages: {@code error: <code>: <message>}
 * on stderr and, with {@code --json}, {@code {"error": code, "message": ...}} on stdout. Codes are
 * a {@link GateException.Code#wireName()}, or {@code usage}, {@code config}, {@code store} or
 * {@code internal}. Stateless and thread-safe; never blocks beyond writing the lines.
 */
final class Errors {
  /** The verbs that exit with a command's status, so that their own errors exit 125. */
  private static final java.util.Set<String> PASSES_STATUS = java.util.Set.of("run", "wait");

  private Errors() {}

  /** How one failure is reported. */
  record Failure(ExitCode exit, String code, String message, String reason) {
    Failure(ExitCode exit, String code, String message) {
      this(exit, code, message, "");
    }
  }

  /** Classifies a failure. */
  static Failure classify(Throwable e) {
    if (e instanceof GateException g && g.loss().isPresent()) {
      return new Failure(
          ExitCode.PERMIT_LOST, g.code().wireName(), g.getMessage(), g.loss().get().wireName());
    }
    if (e instanceof GateException g) {
      return new Failure(exitFor(g.code()), g.code().wireName(), g.getMessage());
    }
    if (e instanceof ParameterException || e instanceof IllegalArgumentException) {
      return new Failure(ExitCode.USAGE, "usage", e.getMessage());
    }
    if (e instanceof StaleDrainException) {
      return new Failure(ExitCode.STALE_DRAIN, "stale_drain", e.getMessage());
    }
    if (e instanceof NoSuchPoolException) {
      return new Failure(ExitCode.NO_SUCH_POOL, "no_such_pool", e.getMessage());
    }
    if (e instanceof ConfigFileException) {
      return new Failure(ExitCode.STORE, "config", e.getMessage());
    }
    if (e instanceof SluiceException) {
      return new Failure(ExitCode.STORE, "store", e.getMessage());
    }
    if (e instanceof IOException || e instanceof UncheckedIOException) {
      return new Failure(ExitCode.STORE, "store", "I/O failed: " + e.getMessage());
    }
    return new Failure(ExitCode.INTERNAL, "internal", String.valueOf(e));
  }

  /** The refusals a script must tell apart from other refusals get statuses of their own. */
  static ExitCode exitFor(GateException.Code code) {
    return switch (code) {
      case CANCELLED -> ExitCode.CANCELLED;
      case UNKNOWN_REQUEST, UNKNOWN_LABEL -> ExitCode.NO_SUCH_JOB;
      case AMBIGUOUS_LABEL -> ExitCode.AMBIGUOUS_JOB;
      default -> ExitCode.REFUSED;
    };
  }

  /**
   * Prints a failure and returns its classification.
   *
   * @param e the failure
   * @param out stdout, for the JSON form
   * @param err stderr
   * @param json whether {@code --json} was given
   */
  static Failure report(Throwable e, PrintWriter out, PrintWriter err, boolean json) {
    Failure f = classify(e);
    err.println("error: " + f.code() + ": " + f.message());
    if (f.exit() == ExitCode.INTERNAL) {
      // A bug: the stack trace is what a report needs.
      e.printStackTrace(err);
    }
    err.flush();
    if (json) {
      JsonObject error = GateJson.error(f.code(), f.message());
      if (!f.reason().isEmpty()) {
        error.put("reason", f.reason()).put("lost", true);
      }
      out.println(GateJson.line(error));
      out.flush();
    }
    return f;
  }

  /** picocli's handler for what a verb threw. */
  static int onExecution(Exception e, CommandLine cl, ParseResult parsed) {
    SluiceCommand root = (SluiceCommand) cl.getCommandSpec().root().userObject();
    ExitCode exit = report(e, cl.getOut(), cl.getErr(), root.json()).exit();
    boolean run = PASSES_STATUS.contains(cl.getCommandSpec().name());
    return (run && exit != ExitCode.INTERNAL ? ExitCode.RUN_FAILED : exit).code();
  }

  /** picocli's handler for a bad verb, flag or value: the message and where to read more. */
  static int onParameter(ParameterException e, String[] args) {
    CommandLine cl = e.getCommandLine();
    PrintWriter err = cl.getErr();
    err.println("error: usage: " + e.getMessage());
    CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
    err.println("See '" + cl.getCommandSpec().qualifiedName() + " --help'.");
    err.flush();
    // The parse failed, so the --json flag may not have been bound: look at the words.
    int end = Arrays.asList(args).indexOf("--");
    if (Arrays.asList(args).subList(0, end < 0 ? args.length : end).contains("--json")) {
      cl.getOut().println(GateJson.line(GateJson.error("usage", e.getMessage())));
      cl.getOut().flush();
    }
    // Like timeout(1) and env(1): run's own errors must not look like one of CMD's statuses.
    boolean run =
        PASSES_STATUS.contains(cl.getCommandSpec().name())
            || PASSES_STATUS.contains(String.valueOf(SluiceCommand.verbOf(args)));
    return (run ? ExitCode.RUN_FAILED : ExitCode.USAGE).code();
  }
}
