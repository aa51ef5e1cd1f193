/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi.support;

/**
 * Sluice's own logger: a thin facade over SLF4J that writes nothing when SLF4J is not on the class
 * path. Obtain one with {@link Logs#of(Class)}. Messages use SLF4J's {@code {}} placeholders; a
 * {@link Throwable} as the last argument is logged with its stack trace.
 *
 * <p>Levels: {@code error} for what loses work or needs an operator, {@code warn} for what the
 * library survived but a user should know (a store failure, a lost owner, a listener bug), {@code
 * info} for rare lifecycle facts (a store recovered), {@code debug} for detail.
 *
 * <p>Implementations are thread-safe and never throw; none blocks beyond what the bound SLF4J
 * backend does.
 */
public interface Log {

  /** Logs at error level. */
  void error(String format, Object... args);

  /** Logs at warn level. */
  void warn(String format, Object... args);

  /** Logs at info level. */
  void info(String format, Object... args);

  /** Logs at debug level. */
  void debug(String format, Object... args);

  /** Whether debug messages are written, to skip building costly arguments. */
  boolean debugEnabled();

  /** Whether this logger writes anywhere: false when SLF4J or its provider is absent. */
  boolean active();
}
