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
 * Answers {@code sluice --version} from the version file Maven writes at build time. Stateless and
 * thread-safe; reads one small resource.
 */
public final class VersionProvider implements IVersionProvider {
  /** Creates the provider; picocli calls this. */
  public VersionProvider() {}

  @Override
  public String[] getVersion() throws IOException {
    Properties p = new Properties();
    // ExitCode lives in dev.sluice.cli, next to the resource; same module, so it is readable.
    try (InputStream in = ExitCode.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        p.load(in);
      }
    }
    return new String[] {
      "sluice " + p.getProperty("version", "unknown"),
      "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ")"
    };
  }
}
