/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.cli.SluiceProcesses.Result;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live {@code sluice top} on a real pseudo-terminal (util-linux {@code script} makes one and
 * relays its own stdin and stdout to it): it shows a {@code sluice run} started meanwhile, quits on
 * {@code q} with status 0, and leaves the terminal as it found it.
 */
class TopTerminalProcessTest {
  // What xterm's terminfo entry says for these capabilities, which the test's TERM selects.
  static final String ENTER_ALTERNATE_SCREEN = "\033[?1049h";
  static final String EXIT_ALTERNATE_SCREEN = "\033[?1049l";
  static final String SHOW_CURSOR = "\033[?25h";
  static final String HIDE_CURSOR = "\033[?25l";

  @TempDir Path home;
  SluiceProcesses sluice;
  Process top;

  @AfterEach
  void killLeftovers() {
    if (top != null) {
      top.destroyForcibly();
    }
    if (sluice != null) {
      sluice.close();
    }
  }

  @Test
  void showsARunStartedMeanwhileAndQuitsOnQRestoringTheTerminal() throws Exception {
    assumeTrue(PseudoTerminal.available(), "no pseudo-terminal: util-linux script is missing");
    sluice = new SluiceProcesses(home);
    assertThat(sluice.run("pool", "set", "watched", "--capacity", "1").exit()).isZero();
    String java = PseudoTerminal.shellLine(sluice.command("top"));
    // The pseudo-terminal starts cooked and unsized; after top, stty shows what it was left in.
    String shell =
        "stty cols 160 rows 40; " + java + "; s=$?; echo; echo \"top exited $s\"; stty -a; exit $s";
    top = PseudoTerminal.start(shell);
    LiveOutput screen = new LiveOutput(top.getInputStream());

    screen.await("q quits");
    assertThat(screen.text()).contains(ENTER_ALTERNATE_SCREEN, HIDE_CURSOR);

    // A command that runs until its stdin (this test's pipe) closes.
    Process run =
        sluice.start(
            "run",
            "--pool",
            "watched",
            "--label",
            "seen-by-top",
            "--",
            "sh",
            "-c",
            "cat >/dev/null");
    screen.await("seen-by-top");
    int shownAt = screen.text().indexOf("seen-by-top");
    run.getOutputStream().close();
    Result ran = SluiceProcesses.finish(run);
    assertThat(ran.exit()).as(ran.toString()).isZero();

    OutputStream keys = top.getOutputStream();
    keys.write('q');
    keys.flush();
    assertThat(top.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS))
        .as("top quits on q: %s", screen)
        .isTrue();
    screen.drained();
    String after = screen.text().substring(shownAt);
    assertThat(top.exitValue()).as(screen.toString()).isZero();
    assertThat(after).contains("top exited 0");
    String beforeStty = after.substring(0, after.indexOf("top exited 0"));
    assertThat(beforeStty).contains(SHOW_CURSOR, EXIT_ALTERNATE_SCREEN);
    assertThat(beforeStty.lastIndexOf(EXIT_ALTERNATE_SCREEN))
        .as("nothing is drawn after leaving the alternate screen")
        .isGreaterThan(beforeStty.lastIndexOf("seen-by-top"));
    String modes = after.substring(after.indexOf("top exited 0"));
    assertThat(modes)
        .containsPattern("(^|\\s)icanon\\s")
        .containsPattern("(^|\\s)isig\\s")
        .containsPattern("(^|\\s)echo\\s")
        .doesNotContainPattern("(^|\\s)-(icanon|isig|echo)\\s");
  }
}
