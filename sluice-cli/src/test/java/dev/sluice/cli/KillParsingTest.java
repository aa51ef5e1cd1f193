/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.command.SluiceCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Usage errors of {@code kill} and {@code cancel}, in-process: each is refused before the gate is
 * opened, so the home is never even created.
 */
class KillParsingTest {
  @TempDir Path tmp;

  record Run(int exit, String err) {}

  Run sluice(String... args) {
    Path home = tmp.resolve("home");
    CommandLine cl = SluiceCommand.commandLine(Map.of("SLUICE_HOME", home.toString()), args);
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(new StringWriter(), true));
    cl.setErr(new PrintWriter(err, true));
    return new Run(cl.execute(args), err.toString());
  }

  @Test
  void aJobIsNamedByExactlyOneIdOrLabel() {
    for (String verb : new String[] {"kill", "cancel"}) {
      Run neither = sluice(verb);
      assertThat(neither.exit()).as(verb).isEqualTo(2);
      assertThat(neither.err())
          .contains(verb + " needs exactly one job: a request id or --label L");
      Run both = sluice(verb, "r1", "--label", "x");
      assertThat(both.exit()).as(verb).isEqualTo(2);
      assertThat(both.err()).contains("not both");
      Run empty = sluice(verb, "--label", "");
      assertThat(empty.exit()).as(verb).isEqualTo(2);
      assertThat(empty.err()).contains("label must be 1 to 200 characters, was 0");
    }
    assertThat(Files.exists(tmp.resolve("home"))).as("nothing was opened").isFalse();
  }

  @Test
  void aSignalOutsideTheListIsRefusedNamingTheAllowedOnes() {
    Run r = sluice("kill", "r1", "--signal", "STOP");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .contains("--signal", "'STOP' is not a signal kill sends")
        .contains("TERM, INT, HUP, QUIT, USR1, USR2, KILL");
  }

  @Test
  void aGraceWithSigkillIsRefusedAsItCouldNeverApply() {
    Run r = sluice("kill", "r1", "--signal", "SIGKILL", "--grace", "5s");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("--grace 5s", "--signal KILL");
    assertThat(Files.exists(tmp.resolve("home"))).isFalse();
  }
}
