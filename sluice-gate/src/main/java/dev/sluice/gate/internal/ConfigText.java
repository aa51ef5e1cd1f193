/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import dev.sluice.gate.ConfigProblem;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The configuration file's text, line by line: {@code key = value} lines, {@code #} comments (whole
 * lines, or after a value) and blank lines. No escapes, quotes or continuations: no value needs
 * them. Every line is checked on reading; a change ({@link #with}, {@link #without}) keeps every
 * other line, comments included, as it was. Immutable and thread-safe.
 */
public final class ConfigText {
  /** What a new file starts with, for whoever opens it in an editor. */
  static final List<String> HEADER =
      List.of(
          "# The sluice gate's configuration: one 'key = value' per line, # starts a comment.",
          "# Keys, defaults and allowed values: sluice config get; change: sluice config set.");

  /** A line, with its key and value when it has them. */
  private record Line(String raw, String key, String value) {}

  private final List<Line> lines;
  private final List<ConfigProblem> problems = new ArrayList<>();
  private final Map<String, String> values = new LinkedHashMap<>();
  private final Map<String, Integer> firstLine = new HashMap<>();

  private ConfigText(List<Line> lines) {
    this.lines = List.copyOf(lines);
    for (int i = 0; i < this.lines.size(); i++) {
      check(i + 1, this.lines.get(i));
    }
  }

  /** No file: every key takes its default. */
  public static ConfigText empty() {
    return new ConfigText(List.of());
  }

  /** A file whose bytes are not text: one problem naming the whole file. */
  public static ConfigText unreadable(String why) {
    ConfigText t = empty();
    t.problems.add(new ConfigProblem(0, "", "", why));
    return t;
  }

  /** Reads the file's text. */
  public static ConfigText parse(String text) {
    List<Line> out = new ArrayList<>();
    List<String> raw = new ArrayList<>(List.of(text.split("\n", -1)));
    if (!raw.isEmpty() && raw.get(raw.size() - 1).isEmpty()) {
      raw.remove(raw.size() - 1); // the final line break ends the last line
    }
    for (String r : raw) {
      out.add(line(r.endsWith("\r") ? r.substring(0, r.length() - 1) : r));
    }
    return new ConfigText(out);
  }

  private static Line line(String raw) {
    String t = raw.strip();
    int eq = t.indexOf('=');
    if (t.isEmpty() || t.startsWith("#") || eq < 0) {
      return new Line(raw, null, null);
    }
    String value = t.substring(eq + 1);
    int comment = value.indexOf('#');
    value = (comment < 0 ? value : value.substring(0, comment)).strip();
    return new Line(raw, t.substring(0, eq).strip(), value);
  }

  private void check(int number, Line l) {
    String t = l.raw().strip();
    if (l.key() == null) {
      if (!t.isEmpty() && !t.startsWith("#")) {
        problems.add(
            new ConfigProblem(number, "", t, "not a 'key = value' line (# starts a comment)"));
      }
      return;
    }
    if (l.key().isEmpty()) {
      problems.add(new ConfigProblem(number, "", t, "no key before '='"));
      return;
    }
    Integer first = firstLine.putIfAbsent(l.key(), number);
    if (first != null) {
      problems.add(
          new ConfigProblem(
              number,
              l.key(),
              l.value(),
              "given again (first on line " + first + "); give each key once"));
      return;
    }
    Optional<ConfigKey<?>> key = ConfigKeys.find(l.key());
    if (key.isEmpty()) {
      problems.add(
          new ConfigProblem(
              number,
              l.key(),
              l.value(),
              "unknown key"
                  + ConfigKeys.suggestion(l.key())
                  + "; the keys are "
                  + ConfigKeys.names()));
    } else if (!key.get().allows(l.value())) {
      problems.add(new ConfigProblem(number, l.key(), l.value(), "not " + key.get().allowed()));
    } else {
      values.put(l.key(), key.get().canonical(l.value()));
    }
  }

  /** The lines the gate cannot use, in file order. */
  public List<ConfigProblem> problems() {
    return Collections.unmodifiableList(problems);
  }

  /** Each usable key's value in the gate's own form, in file order. */
  public Map<String, String> values() {
    return Collections.unmodifiableMap(values);
  }

  /** The line that first sets {@code key} (known or not), or 0 if none does. */
  public int lineOf(String key) {
    return firstLine.getOrDefault(key, 0);
  }

  /** The value {@code key}'s first line gives, as written, if a line gives it. */
  public Optional<String> written(String key) {
    return lines.stream().filter(l -> key.equals(l.key())).map(Line::value).findFirst();
  }

  /**
   * This text with {@code key = value}: in place of the key's first line (its other lines are
   * dropped), else at the end. A text without lines gets a short header first.
   */
  public ConfigText with(String key, String value) {
    List<String> out = new ArrayList<>();
    String set = key + " = " + value;
    boolean done = false;
    for (Line l : lines) {
      if (key.equals(l.key())) {
        if (!done) {
          out.add(set);
          done = true;
        }
      } else {
        out.add(l.raw());
      }
    }
    if (!done) {
      if (out.isEmpty()) {
        out.addAll(HEADER);
      }
      out.add(set);
    }
    return parse(String.join("\n", out) + "\n");
  }

  /** This text without any line of {@code key}. */
  public ConfigText without(String key) {
    List<String> out = new ArrayList<>();
    for (Line l : lines) {
      if (!key.equals(l.key())) {
        out.add(l.raw());
      }
    }
    return parse(out.isEmpty() ? "" : String.join("\n", out) + "\n");
  }

  /** The text to write, every line ending with a line break. */
  public String render() {
    StringBuilder b = new StringBuilder();
    lines.forEach(l -> b.append(l.raw()).append('\n'));
    return b.toString();
  }
}
