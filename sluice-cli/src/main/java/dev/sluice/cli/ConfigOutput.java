/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import dev.sluice.gate.ConfigChange;
import dev.sluice.gate.ConfigEntry;
import dev.sluice.gate.ConfigProblem;
import dev.sluice.gate.ConfigView;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How the {@code config} verbs print: JSON objects with stable camelCase fields, and text whose
 * {@code config get} form is itself a valid configuration file ({@code key = value # source}).
 * Stateless and thread-safe.
 */
public final class ConfigOutput {
  private ConfigOutput() {}

  /** {@code config get}: the file, the entries shown, every problem. */
  public static JsonObject view(ConfigView v, List<ConfigEntry> shown) {
    return GateJson.object()
        .put("file", v.file().toString())
        .set("entries", GateJson.array(shown, ConfigOutput::entry))
        .set("problems", GateJson.array(v.problems(), ConfigOutput::problem));
  }

  private static JsonObject entry(ConfigEntry e) {
    JsonObject o =
        GateJson.object()
            .put("key", e.key())
            .put("value", e.value().text())
            .put("source", lower(e.value().source()));
    if (e.line() > 0) {
      o.put("line", e.line());
    }
    if (!e.problem().isEmpty()) {
      o.put("problem", e.problem());
    }
    return o.put("default", e.defaultValue())
        .put("allowed", e.allowed())
        .put("description", e.description());
  }

  /** A line of the file the gate cannot use. */
  public static JsonObject problem(ConfigProblem p) {
    return GateJson.object()
        .put("line", p.line())
        .put("key", p.key())
        .put("value", p.value())
        .put("message", p.message());
  }

  /** {@code config get} as text: a comment naming the file, then {@code key = value # source}. */
  public static List<String> viewText(ConfigView v, List<ConfigEntry> shown) {
    List<String> lines = new ArrayList<>();
    lines.add("# " + v.file());
    for (ConfigEntry e : shown) {
      String source =
          e.line() > 0
              ? "from the file, line " + e.line()
              : "default"
                  + (e.defaultValue().equals(e.value().text()) ? "" : " " + e.defaultValue());
      String problem = e.problem().isEmpty() ? "" : "; UNUSABLE: " + e.problem();
      lines.add(e.key() + " = " + e.value().text() + "  # " + source + problem);
    }
    return lines;
  }

  /** A configuration change, for {@code config set}, {@code config unset} and the history. */
  public static JsonObject change(ConfigChange c) {
    return GateJson.object()
        .put("at", c.at().toString())
        .put("key", c.key())
        .put("via", lower(c.via()))
        .put("oldValue", c.before().text())
        .put("oldSource", lower(c.before().source()))
        .put("newValue", c.after().text())
        .put("newSource", lower(c.after().source()))
        .put("actor", c.actor())
        .put("reason", c.reason())
        .put("changed", c.changed());
  }

  /** The answer of {@code config set} or {@code config unset} in text. */
  public static String changeText(ConfigChange c, Path file) {
    if (!c.changed()) {
      return c.key() + " is already " + c.after().describe() + "; nothing changed";
    }
    return c.describe() + " in " + file;
  }

  /** One history line: when, the key, old -> new, how and by whom, why. */
  public static String historyLine(ConfigChange c) {
    String by =
        c.via() == ConfigChange.Via.FILE_EDIT
            ? "by an edit of the file"
            : "by " + c.actor() + " (config " + lower(c.via()) + ")";
    String why = c.reason().isEmpty() ? "" : "  (" + c.reason() + ")";
    return c.at() + " " + c.describe() + " " + by + why;
  }

  private static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }
}
