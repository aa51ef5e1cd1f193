/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi.support;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Log} backed by an SLF4J logger. Only {@link Logs} names this class, and only after it
 * found SLF4J, so the JVM never resolves {@code org.slf4j} types when SLF4J is absent.
 *
 * <p>Thread-safe, as SLF4J loggers are. A backend that throws is ignored: logging must never break
 * the limiter.
 */
final class Slf4jLog implements Log {
  private final Logger logger;

  Slf4jLog(Class<?> owner) {
    this.logger = LoggerFactory.getLogger(owner);
  }

  @Override
  public void error(String format, Object... args) {
    try {
      logger.error(format, args);
    } catch (RuntimeException ignored) {
      // A broken backend must not fail the caller.
    }
  }

  @Override
  public void warn(String format, Object... args) {
    try {
      logger.warn(format, args);
    } catch (RuntimeException ignored) {
      // A broken backend must not fail the caller.
    }
  }

  @Override
  public void info(String format, Object... args) {
    try {
      logger.info(format, args);
    } catch (RuntimeException ignored) {
      // A broken backend must not fail the caller.
    }
  }

  @Override
  public void debug(String format, Object... args) {
    try {
      logger.debug(format, args);
    } catch (RuntimeException ignored) {
      // A broken backend must not fail the caller.
    }
  }

  @Override
  public boolean debugEnabled() {
    return logger.isDebugEnabled();
  }

  @Override
  public boolean active() {
    return true;
  }
}
