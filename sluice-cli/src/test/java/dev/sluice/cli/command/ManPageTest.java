/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The man page names every verb and option of the model, and groff renders it without a warning.
 */
class ManPageTest {
  private static final String PAGE = ManPage.render("sluice 1.2.3", "2026-12-05");

  @Test
  void everyVerbAndItsOptionsAreOnThePage() {
    assertThat(PAGE).startsWith(".TH SLUICE 1 \"2026-12-05\" \"sluice 1.2.3\"");
    for (var verb : SluiceCommand.commandLine(java.util.Map.of()).getSubcommands().entrySet()) {
      String name = ".SS \"sluice " + verb.getKey().replace("-", "\\-");
      if (verb.getValue().getCommandSpec().usageMessage().hidden()) {
        // The runner of a submitted job is started by submit, never by people.
        assertThat(PAGE).as(verb.getKey()).doesNotContain(name);
      } else {
        assertThat(PAGE).as(verb.getKey()).contains(name);
      }
    }
    assertThat(PAGE).contains("\\fB\\-\\-queue\\-timeout\\fR \\fID\\fR");
    assertThat(PAGE).contains(".SS \"sluice pool set");
    assertThat(PAGE).contains("124").contains("SLUICE_HOME");
  }

  @Test
  void leadingDotsAndBackslashesAreEscaped() {
    assertThat(ManPage.text(".hidden")).isEqualTo("\\&.hidden");
    assertThat(ManPage.text("a\\b")).isEqualTo("a\\eb");
    assertThat(ManPage.text("--pool")).isEqualTo("\\-\\-pool");
  }

  @Test
  void groffRendersThePageWithoutWarnings() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/groff")), "groff is not installed");
    Process groff = new ProcessBuilder("groff", "-man", "-Tutf8", "-ww").start();
    try (OutputStream in = groff.getOutputStream()) {
      in.write(PAGE.getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(groff.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(groff.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(groff.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(groff.exitValue()).as(err).isZero();
    assertThat(err).isEmpty();
    // grotty emphasises by overstriking: a character, a backspace, the character again.
    String plain = out.replaceAll(".\b", "");
    assertThat(plain).contains("sluice run").contains("EXIT STATUS");
  }
}
