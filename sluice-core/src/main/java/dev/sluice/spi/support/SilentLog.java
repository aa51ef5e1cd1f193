/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi.support;

/** The logger used without SLF4J: writes nothing. Stateless and thread-safe. */
enum SilentLog implements Log {
  INSTANCE;

  @Override
  public void error(String format, Object... args) {}

  @Override
  public void warn(String format, Object... args) {}

  @Override
  public void info(String format, Object... args) {}

  @Override
  public void debug(String format, Object... args) {}

  @Override
  public boolean debugEnabled() {
    return false;
  }

  @Override
  public boolean active() {
    return false;
  }
}
