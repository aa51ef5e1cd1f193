/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.Durations;
import java.io.BufferedWriter;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code sluice run} in its plain forms, parsed without picocli: building picocli's model by
 * reflection and loading its classes (Java 5 class files, which class-data sharing cannot archive)
 * took about 0.12 s of a 0.19 s {@code sluice run -- true}. Only a strict subset of what picocli
 * accepts is taken here: the global options {@code --home}, {@code --agent}, {@code --json}, the
 * verb {@code run}, its flag {@code --quiet} (or {@code -q}), its options {@code --pool}, {@code
 * --weight}, {@code --queue-timeout}, {@code --label}, {@code --reason}, {@code --op}, each at most
 * once, as {@code --name value} or {@code --name=value} with a value that is not empty, not {@code
 * run} and does not start with {@code -}, then {@code --} or a first word not starting with {@code
 * -}, then the command (with no further {@code --} in it). Anything else (help, version, another
 * verb, an unknown or repeated option, a value picocli would have to convert differently or reject,
 * an {@code @file} argument anywhere) is left to picocli, which also words every usage error, so
 * both parsers give the same answer for every command line this one takes.
 *
 * <p>Stateless and thread-safe; {@link #execute} blocks as long as the run.
 */
public final class QuickRun {
  private static final Set<String> GLOBAL_VALUED = Set.of("--home", "--agent");
  private static final Set<String> RUN_VALUED =
      Set.of("--pool", "--weight", "--queue-timeout", "--label", "--reason", "--op");

  /** Plain decimal: picocli's {@code Integer.valueOf} reads it the same way. */
  private static final Pattern WEIGHT = Pattern.compile("0|[1-9][0-9]{0,8}");

  private QuickRun() {}

  /**
   * Runs {@code args} if they are {@code run} in a plain form; the exit status, or empty (nothing
   * done, nothing printed) if picocli must parse them.
   *
   * @param env the environment
   * @param args the command line
   */
  public static OptionalInt execute(Map<String, String> env, String[] args) {
    Optional<RunArgs> parsed = parse(args);
    if (parsed.isEmpty()) {
      return OptionalInt.empty();
    }
    // The writers picocli would have made: its encoding rules, line-buffered, auto-flushing.
    PrintWriter out = writer(System.out, System.getProperty("sun.stdout.encoding"));
    PrintWriter err = writer(System.err, System.getProperty("sun.stderr.encoding"));
    try {
      return OptionalInt.of(new RunAction(parsed.get(), env, out, err).run());
    } catch (Exception e) {
      // As picocli's execution handler (Errors#onExecution) reports what a verb threw.
      return OptionalInt.of(Errors.report(e, out, err, parsed.get().json()).exit().code());
    }
  }

  /** The run {@code args} ask for, or empty if they are not in a form this class takes. */
  static Optional<RunArgs> parse(String[] args) {
    for (String a : args) {
      if (a.startsWith("@")) {
        return Optional.empty(); // picocli reads @files
      }
    }
    Map<String, String> values = new HashMap<>();
    boolean json = false;
    boolean quiet = false;
    boolean inRun = false;
    int i = 0;
    for (; i < args.length; i++) {
      String a = args[i];
      if (!inRun && a.equals("run")) {
        inRun = true;
        continue;
      }
      if (inRun && a.equals("--")) {
        i++;
        break;
      }
      if (inRun && !a.isEmpty() && !a.startsWith("-")) {
        break; // the command's first word: "run make -j4" hands -j4 to make
      }
      if (inRun && (a.equals("--quiet") || a.equals("-q"))) {
        if (quiet) {
          return Optional.empty();
        }
        quiet = true;
        continue;
      }
      if (a.equals("--json")) {
        if (json) {
          return Optional.empty();
        }
        json = true;
        continue;
      }
      int eq = a.indexOf('=');
      String name = eq > 0 ? a.substring(0, eq) : a;
      if (!GLOBAL_VALUED.contains(name) && !(inRun && RUN_VALUED.contains(name))) {
        return Optional.empty();
      }
      String value;
      if (eq > 0) {
        value = a.substring(eq + 1);
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        return Optional.empty();
      }
      // picocli takes neither a word like an option nor a verb's name as an option's value.
      if (value.isEmpty()
          || value.startsWith("-")
          || value.equals("run")
          || values.putIfAbsent(name, value) != null) {
        return Optional.empty();
      }
    }
    List<String> command = List.of(args).subList(Math.min(i, args.length), args.length);
    if (!inRun || command.isEmpty() || command.contains("--")) {
      return Optional.empty();
    }
    return build(values, json, quiet, command);
  }

  private static Optional<RunArgs> build(
      Map<String, String> values, boolean json, boolean quiet, List<String> command) {
    String weight = values.getOrDefault("--weight", "1");
    if (!WEIGHT.matcher(weight).matches()) {
      return Optional.empty();
    }
    Duration queueTimeout = null;
    Path home = null;
    try {
      if (values.containsKey("--queue-timeout")) {
        queueTimeout = Durations.parse(values.get("--queue-timeout"));
      }
      if (values.containsKey("--home")) {
        home = Path.of(values.get("--home"));
      }
    } catch (IllegalArgumentException e) {
      // A bad duration, or a path the file system cannot have (InvalidPathException): picocli
      // words the error.
      return Optional.empty();
    }
    return Optional.of(
        new RunArgs(
            home,
            json,
            quiet,
            values.get("--agent"),
            values.get("--pool"),
            Integer.parseInt(weight),
            queueTimeout,
            values.get("--label"),
            values.getOrDefault("--reason", ""),
            values.get("--op"),
            command));
  }

  private static PrintWriter writer(OutputStream stream, String encoding) {
    Charset charset = Charset.defaultCharset();
    if (encoding != null) {
      try {
        charset = Charset.forName(encoding.equalsIgnoreCase("cp65001") ? "UTF-8" : encoding);
      } catch (IllegalArgumentException e) {
        // Unknown: the default, as picocli does.
      }
    }
    return new PrintWriter(new BufferedWriter(new OutputStreamWriter(stream, charset)), true);
  }
}
