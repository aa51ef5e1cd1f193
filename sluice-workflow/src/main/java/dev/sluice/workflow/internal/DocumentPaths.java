/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Paths into a durable store's encoded state, as JSON Pointers (RFC 6901): which paths a change
 * touched, and whether a watched path sees a touched one. Pure functions; thread-safe.
 *
 * <p>A touched path is as deep as the change: replacing {@code /order} touches {@code /order}, not
 * every field under it. So a watcher sees a change when either path is a prefix of the other (by
 * whole segments): {@code /items} sees {@code /items/3}, and {@code /order/status} sees {@code
 * /order} replaced. A state that is not JSON counts as touched at the root, which every watcher
 * sees: a spurious wake costs a test of the condition, a missed one would be a lost wake-up.
 */
final class DocumentPaths {
  /** The whole document. */
  static final String ROOT = "";

  /** Exact numbers (0.10 is not 0.1) and whole documents (nothing may follow the value). */
  private static final ObjectMapper JSON =
      JsonMapper.builder()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
          .build();

  private DocumentPaths() {}

  /**
   * Checks watched paths.
   *
   * @return the paths, copied
   * @throws IllegalArgumentException naming the step and the path if there is none, or one is not
   *     {@code ""} and does not start with {@code /}, has an empty segment ({@code "/"}, {@code
   *     "/items/"}), which would name a field called {@code ""} and so never see the changes its
   *     author meant, or has a {@code ~} not followed by {@code 0} or {@code 1}
   */
  static List<String> checkWatched(String stepKey, List<String> paths) {
    if (paths == null || paths.isEmpty()) {
      throw new IllegalArgumentException(
          "watchedPaths of step '"
              + stepKey
              + "' must name at least one JSON Pointer (\"\" watches the whole document), was "
              + paths);
    }
    for (String p : paths) {
      if (p == null || !(p.isEmpty() || p.startsWith("/")) || malformed(p)) {
        throw new IllegalArgumentException(
            "watched path of step '"
                + stepKey
                + "' must be a JSON Pointer: \"\" for the whole document, or '/' and a name per"
                + " level, like \"/items/0\", with no empty level and '~' only as ~0 or ~1; was "
                + (p == null ? "null" : "'" + p + "'"));
      }
    }
    return List.copyOf(paths);
  }

  /**
   * The paths where {@code after} differs from {@code before}, shallowest first; none only if the
   * two are the same text. Texts that differ but compare equal as JSON (fields in another order)
   * count as changed at the root, so a state that changed is never taken for an unchanged one.
   */
  static List<String> changed(String before, String after) {
    if (before.equals(after)) {
      return List.of();
    }
    JsonNode a;
    JsonNode b;
    try {
      a = JSON.readTree(before);
      b = JSON.readTree(after);
    } catch (JsonProcessingException notJson) {
      return List.of(ROOT);
    }
    if (a == null || b == null) {
      return List.of(ROOT);
    }
    Set<String> out = new LinkedHashSet<>();
    diff(ROOT, a, b, out);
    return out.isEmpty() ? List.of(ROOT) : new ArrayList<>(out);
  }

  private static boolean malformed(String pointer) {
    if (pointer.isEmpty()) {
      return false;
    }
    if (pointer.endsWith("/") || pointer.contains("//")) {
      return true;
    }
    for (int i = pointer.indexOf('~'); i >= 0; i = pointer.indexOf('~', i + 1)) {
      if (i + 1 >= pointer.length()
          || (pointer.charAt(i + 1) != '0' && pointer.charAt(i + 1) != '1')) {
        return true;
      }
    }
    return false;
  }

  private static void diff(String at, JsonNode a, JsonNode b, Set<String> out) {
    if (a.isObject() && b.isObject()) {
      Set<String> names = new LinkedHashSet<>();
      a.fieldNames().forEachRemaining(names::add);
      b.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        String child = at + "/" + escape(name);
        JsonNode x = a.get(name);
        JsonNode y = b.get(name);
        if (x == null || y == null) {
          out.add(child);
        } else {
          diff(child, x, y, out);
        }
      }
      return;
    }
    if (a.isArray() && b.isArray()) {
      Iterator<JsonNode> xs = a.elements();
      Iterator<JsonNode> ys = b.elements();
      for (int i = 0; xs.hasNext() || ys.hasNext(); i++) {
        String child = at + "/" + i;
        if (xs.hasNext() && ys.hasNext()) {
          diff(child, xs.next(), ys.next(), out);
        } else {
          // An element appended or removed.
          out.add(child);
          if (xs.hasNext()) {
            xs.next();
          } else {
            ys.next();
          }
        }
      }
      return;
    }
    // Leaves compare as written: 0.10 and 0.1 are equal numbers but not the same state.
    if (a.getNodeType() != b.getNodeType() || !a.toString().equals(b.toString())) {
      out.add(at);
    }
  }

  /** Whether a change at any of {@code touched} is seen by a watcher of any of {@code watched}. */
  static boolean seen(List<String> watched, List<String> touched) {
    for (String w : watched) {
      for (String t : touched) {
        if (prefixOf(w, t) || prefixOf(t, w)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether {@code p} is {@code q} or one of its ancestors, by whole segments. */
  private static boolean prefixOf(String p, String q) {
    return q.startsWith(p) && (q.length() == p.length() || q.charAt(p.length()) == '/');
  }

  private static String escape(String name) {
    return name.replace("~", "~0").replace("/", "~1");
  }
}
