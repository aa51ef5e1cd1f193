/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-Z on a terminal stops the command's process group as well as {@code sluice run} (the command
 * runs in a session of its own, where SIGTSTP alone would be dropped), and continuing {@code
 * sluice} continues the command.
 */
class CtrlZProcessTest {
  private static final Pattern PID = Pattern.compile("cmd-pid (\\d+)");

  @TempDir Path home;
  SluiceProcesses sluice;
  Process tty;

  @BeforeEach
  void open() {
    sluice = new SluiceProcesses(home);
  }

  @AfterEach
  void close() {
    if (tty != null) {
      tty.destroyForcibly();
    }
    sluice.close();
  }

  @Test
  void ctrlZStopsTheCommandsGroupAndSluiceAndContinuingSluiceContinuesIt() throws Exception {
    assumeTrue(PseudoTerminal.available(), "no pseudo-terminal: util-linux script is missing");
    tty =
        PseudoTerminal.start(
            PseudoTerminal.shellLine(
                sluice.command(
                    "run", "--", "sh", "-c", "echo \"cmd-pid $$\"; read x; echo \"got $x\"")));
    LiveOutput screen = new LiveOutput(tty.getInputStream());
    OutputStream keys = tty.getOutputStream();
    screen.await("cmd-pid ");
    screen.await("\n");
    Matcher m = PID.matcher(screen.text());
    assertThat(m.find()).as(screen.toString()).isTrue();
    long command = Long.parseLong(m.group(1));
    long sluicePid = Long.parseLong(field(command, 4));

    keys.write(0x1a); // Ctrl-Z
    keys.flush();
    screen.await("sluice: stopped the command (process group " + command + ")");
    assertThat(awaitState(command, 'T')).as("the command is stopped: %s", screen).isEqualTo('T');
    assertThat(awaitState(sluicePid, 'T')).as("sluice is stopped: %s", screen).isEqualTo('T');

    // What fg does: continue the job's process group (sluice and the shell that started it).
    // util-linux script, seeing its child stop, stops itself as a job would: continue it too.
    long job = Long.parseLong(field(sluicePid, 5));
    assertThat(new ProcessBuilder("kill", "-CONT", "--", "-" + job).start().waitFor()).isZero();
    assertThat(new ProcessBuilder("kill", "-CONT", Long.toString(tty.pid())).start().waitFor())
        .isZero();
    screen.await("sluice: continued the command (process group " + command + ")");
    assertThat(state(command)).isNotEqualTo('T');

    keys.write("hello\n".getBytes(StandardCharsets.UTF_8));
    keys.flush();
    screen.await("got hello");
    assertThat(tty.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS))
        .as(screen.toString())
        .isTrue();
    assertThat(tty.exitValue()).as(screen.toString()).isZero();
  }

  /** Field {@code n} (1-based) of {@code /proc/<pid>/stat}, after the command name. */
  private static String field(long pid, int n) throws Exception {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return rest[n - 3];
  }

  private static char state(long pid) throws Exception {
    return field(pid, 3).charAt(0);
  }

  /**
   * The state of {@code pid} once it is {@code wanted}, or its last state. The kernel stops a
   * process when it next runs after kill(2) returned, and tells no one but its parent: so this one
   * re-reads {@code /proc}, bounded, for a process this test is not the parent of.
   */
  private static char awaitState(long pid, char wanted) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SluiceProcesses.TIMEOUT_SECONDS);
    char s = state(pid);
    while (s != wanted && System.nanoTime() < deadline) {
      Thread.onSpinWait();
      s = state(pid);
    }
    return s;
  }
}
