/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.ExitCode;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The runner of a submitted job as {@code sluice submit} starts it: the same JVM and class path as
 * this one, running the hidden verb {@code job-runner} through {@code setsid}, so that it leads a
 * session of its own, away from the submitting shell's terminal, process group and hangups. Its
 * stdin is {@code /dev/null}; its stdout and stderr come back on one pipe only until it answered
 * with one line: the id of the job it queued, or why it queued nothing. After that it writes only
 * to the job's log, and the submitter may be gone.
 *
 * <p>Not thread-safe: one per submit. {@link #await} blocks until the runner answered or ended.
 */
final class RunnerProcess {
  /** The hidden verb the runner runs. */
  static final String VERB = "job-runner";

  private static final String QUEUED = "sluice-job-runner: queued ";
  private static final String REFUSED = "sluice-job-runner: refused ";
  private static final String MAIN = "dev.sluice.cli.Sluice";
  private static final String SETSID = GroupSignals.firstExisting("/usr/bin/setsid", "/bin/setsid");

  /** What the runner answered: the job's id, or the failure to report in its place. */
  record Answer(Optional<String> requestId, Errors.Failure failure) {}

  private final Process process;

  private RunnerProcess(Process process) {
    this.process = process;
  }

  /**
   * Starts a runner.
   *
   * @param sluiceArgs the arguments this invocation was started with: the tail of this JVM's
   *     command line, which the runner's replaces
   * @param runnerArgs the runner's arguments (global options, {@code job-runner}, its options)
   */
  static RunnerProcess start(List<String> sluiceArgs, List<String> runnerArgs) throws IOException {
    List<String> argv = new ArrayList<>();
    argv.add(SETSID);
    argv.addAll(jvm(sluiceArgs));
    argv.addAll(runnerArgs);
    ProcessBuilder pb = new ProcessBuilder(argv);
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.redirectErrorStream(true);
    return new RunnerProcess(pb.start());
  }

  /** The runner's pid (also its session's and process group's). */
  long pid() {
    return process.pid();
  }

  /** Reads until the runner answered, or ended without answering (its output is the failure). */
  Answer await() throws IOException, InterruptedException {
    List<String> other = new ArrayList<>();
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        Optional<Answer> answer = parse(line);
        if (answer.isPresent()) {
          return answer.get();
        }
        if (other.size() < 20) {
          other.add(line);
        }
      }
    }
    int status = process.waitFor();
    return new Answer(
        Optional.empty(),
        new Errors.Failure(
            ExitCode.STORE,
            "store",
            "the job's runner (pid "
                + process.pid()
                + ") exited "
                + status
                + " before it queued the job"
                + (other.isEmpty() ? "" : ": " + String.join(" / ", other))));
  }

  /** The runner's answer for a queued job. */
  static String queued(String requestId) {
    return QUEUED + requestId;
  }

  /** The runner's answer when it queued nothing. */
  static String refused(Errors.Failure f) {
    return REFUSED + f.exit().name() + " " + f.code() + " " + f.message().replace('\n', ' ');
  }

  static Optional<Answer> parse(String line) {
    if (line.startsWith(QUEUED)) {
      return Optional.of(new Answer(Optional.of(line.substring(QUEUED.length())), null));
    }
    if (line.startsWith(REFUSED)) {
      String[] parts = line.substring(REFUSED.length()).split(" ", 3);
      if (parts.length == 3) {
        ExitCode exit =
            Arrays.stream(ExitCode.values())
                .filter(c -> c.name().equals(parts[0]))
                .findFirst()
                .orElse(ExitCode.INTERNAL);
        return Optional.of(
            new Answer(Optional.empty(), new Errors.Failure(exit, parts[1], parts[2])));
      }
    }
    return Optional.empty();
  }

  /**
   * This JVM's own command line up to the main class's arguments: the java, its options (class-data
   * archives, native library paths, test properties) and the class path, read from {@code
   * /proc/self/cmdline} (the JDK's own view of a process's arguments is cut at one page). Without
   * it, or if its tail is not {@code sluiceArgs}, the java and class path of this JVM.
   */
  static List<String> jvm(List<String> sluiceArgs) {
    try {
      byte[] raw = Files.readAllBytes(Path.of("/proc/self/cmdline"));
      List<String> all =
          new ArrayList<>(Arrays.asList(new String(raw, StandardCharsets.UTF_8).split("\0", -1)));
      if (!all.isEmpty() && all.get(all.size() - 1).isEmpty()) {
        all.remove(all.size() - 1);
      }
      int head = all.size() - sluiceArgs.size();
      if (head > 1 && all.subList(head, all.size()).equals(sluiceArgs)) {
        return List.copyOf(all.subList(0, head));
      }
    } catch (IOException e) {
      // No /proc: the fallback below starts the same classes, only without this JVM's options.
    }
    return List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp",
        System.getProperty("java.class.path"),
        MAIN);
  }
}
