/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.ExitCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The {@code sluice(1)} man page, rendered in roff from the picocli model that parses the command
 * line (the same model as {@code --help} and the completion script), so it cannot fall out of date.
 * The build writes it into the layout as {@code share/man/man1/sluice.1}, where {@code man} finds
 * it for a {@code bin/} on {@code PATH}.
 *
 * <p>Stateless and thread-safe.
 */
public final class ManPage {
  private ManPage() {}

  /**
   * Writes the page to the file named by the first argument, creating its directory.
   *
   * @param args the output file
   * @throws IOException if it cannot be written
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: ManPage OUTPUT-FILE");
    }
    Path out = Path.of(args[0]);
    Files.createDirectories(out.toAbsolutePath().getParent());
    String version = new VersionProvider().getVersion()[0];
    Files.writeString(out, render(version, LocalDate.now(ZoneOffset.UTC).toString()));
  }

  /**
   * Renders the page.
   *
   * @param version what the page's footer names, such as {@code sluice 0.1.0}
   * @param date the page's date, ISO-8601
   * @return the page in roff ({@code man} macros)
   */
  public static String render(String version, String date) {
    CommandLine root = SluiceCommand.commandLine(Map.of());
    CommandSpec spec = root.getCommandSpec();
    StringBuilder page = new StringBuilder();
    page.append(".TH SLUICE 1 \"").append(date).append("\" \"").append(text(version));
    page.append("\" \"User Commands\"\n");
    page.append(".SH NAME\nsluice \\- a machine-wide job gate with pools of capacity\n");
    page.append(".SH SYNOPSIS\n.B sluice\n");
    page.append("[\\fIGLOBAL OPTIONS\\fR] \\fIVERB\\fR [\\fIOPTIONS\\fR] [\\fIARGS\\fR]\n");
    page.append(".SH DESCRIPTION\n");
    paragraphs(page, spec.usageMessage().description());
    page.append(".SH GLOBAL OPTIONS\n");
    options(page, spec, false);
    page.append(".SH COMMANDS\n");
    for (CommandLine verb : root.getSubcommands().values()) {
      if (!verb.getCommandSpec().usageMessage().hidden()) {
        command(page, verb);
      }
    }
    page.append(".SH EXIT STATUS AND ENVIRONMENT\n.nf\n");
    page.append(text(String.format(ExitCode.helpFooter()).strip())).append("\n.fi\n");
    page.append(".SH FILES\n.TP\n.I $XDG_STATE_HOME/sluice\n");
    page.append(
        "The gate's home when neither \\fB\\-\\-home\\fR nor \\fBSLUICE_HOME\\fR names one");
    page.append(" (else \\fI~/.local/state/sluice\\fR): gate.db, gate.lock, notify/, owners/,");
    page.append(" and logs/ (the logs of submitted jobs).\n");
    return page.toString();
  }

  private static void command(StringBuilder page, CommandLine verb) {
    CommandSpec spec = verb.getCommandSpec();
    Help help = new Help(spec, Help.defaultColorScheme(Help.Ansi.OFF));
    page.append(".SS \"").append(text(help.synopsis(0).strip().replaceAll("\\s+", " ")));
    page.append("\"\n");
    paragraphs(page, spec.usageMessage().description());
    for (PositionalParamSpec p : spec.positionalParameters()) {
      if (!p.hidden()) {
        page.append(".TP\n.I ").append(text(p.paramLabel())).append('\n');
        paragraphs(page, p.description());
      }
    }
    options(page, spec, true);
    for (CommandLine sub : verb.getSubcommands().values()) {
      command(page, sub);
    }
  }

  /** The options; a verb's leave out the global ones and help and version, said once above. */
  private static void options(StringBuilder page, CommandSpec spec, boolean verb) {
    for (OptionSpec o : spec.options()) {
      if (o.hidden() || verb && (o.inherited() || o.usageHelp() || o.versionHelp())) {
        continue;
      }
      page.append(".TP\n");
      String names = String.join(", ", o.names());
      page.append("\\fB").append(text(names)).append("\\fR");
      if (o.arity().max() > 0) {
        page.append(" \\fI").append(text(o.paramLabel())).append("\\fR");
      }
      page.append('\n');
      paragraphs(page, o.description());
    }
  }

  /** Description lines as text; picocli's {@code %n} line breaks become new lines. */
  private static void paragraphs(StringBuilder page, String[] lines) {
    for (String line : lines) {
      for (String part : line.replace("%n", "\n").replace("%%", "%").split("\n", -1)) {
        if (!part.isBlank()) {
          page.append(text(part.strip())).append('\n');
        }
      }
    }
  }

  /** Escapes roff: backslashes, hyphens (minus signs in commands), and a leading dot or quote. */
  static String text(String s) {
    String escaped = s.replace("\\", "\\e").replace("-", "\\-");
    StringBuilder out = new StringBuilder();
    for (String line : escaped.split("\n", -1)) {
      if (out.length() > 0) {
        out.append('\n');
      }
      if (line.startsWith(".") || line.startsWith("'")) {
        out.append("\\&");
      }
      out.append(line);
    }
    return out.toString();
  }
}
