/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.ExitCode;
import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * Answers {@code sluice --version} from the files the build writes: the version, and the commit and
 * time of the build. Stateless and thread-safe; reads two small resources.
 */
public final class VersionProvider implements IVersionProvider {
  /** Creates the provider; picocli calls this. */
  public VersionProvider() {}

  @Override
  public String[] getVersion() throws IOException {
    Properties version = load("version.properties");
    Properties build = load("build.properties");
    return new String[] {
      "sluice "
          + version.getProperty("version", "unknown")
          + " (commit "
          + build.getProperty("commit", "unknown")
          + ", built "
          + build.getProperty("built", "unknown")
          + ")",
      "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ")"
    };
  }

  /** This build's version number, {@code 0.1.0-SNAPSHOT}, or {@code unknown}. */
  static String number() {
    try {
      return load("version.properties").getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static Properties load(String resource) throws IOException {
    Properties p = new Properties();
    // ExitCode lives in dev.sluice.cli, next to the resources; same module, so they are readable.
    try (InputStream in = ExitCode.class.getResourceAsStream(resource)) {
      if (in != null) {
        p.load(in);
      }
    }
    return p;
  }
}
