/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Finds the gate's home directory: {@code --home}, else {@code $SLUICE_HOME}, else {@code
 * $XDG_STATE_HOME/sluice}, else {@code ~/.local/state/sluice}. Stateless and thread-safe; never
 * blocks (nothing is created here: opening the gate does that, and only the home itself when --home
 * or $SLUICE_HOME names it).
 */
public final class Home {
  private Home() {}

  /**
   * Resolves the home.
   *
   * @param option the {@code --home} value, or {@code null}
   * @param env the environment
   * @return the home, absolute
   */
  public static Path resolve(Path option, Map<String, String> env) {
    if (option != null) {
      return given("--home", option.toAbsolutePath());
    }
    String sluiceHome = env.get("SLUICE_HOME");
    if (sluiceHome != null && !sluiceHome.isBlank()) {
      return given("SLUICE_HOME", Path.of(sluiceHome).toAbsolutePath());
    }
    // The XDG spec says a relative XDG_STATE_HOME is invalid and must be ignored.
    String xdg = env.get("XDG_STATE_HOME");
    if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
      return Path.of(xdg, "sluice");
    }
    String home = env.getOrDefault("HOME", System.getProperty("user.home"));
    return Path.of(home, ".local", "state", "sluice").toAbsolutePath();
  }

  /**
   * A home someone named: opening the gate makes the home itself, but a missing parent means a
   * mistyped path more often than a wish for a new tree, so it is refused before anything exists.
   */
  private static Path given(String source, Path home) {
    Path parent = home.getParent();
    if (!Files.exists(home)
        && parent != null
        && Files.exists(parent)
        && !Files.isDirectory(parent)) {
      throw new IllegalArgumentException(
          source + " " + home + ": its parent " + parent + " is not a directory");
    }
    if (!Files.exists(home) && parent != null && !Files.isDirectory(parent)) {
      throw new IllegalArgumentException(
          source
              + " "
              + home
              + ": neither the home nor its parent "
              + parent
              + " exists; sluice creates only the home itself (create the parent first: mkdir -p "
              + parent
              + ")");
    }
    return home;
  }
}
