/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi.support;

import java.io.IOException;

/**
 * Gives Sluice's loggers. SLF4J is an optional dependency: when {@code slf4j-api} and a provider
 * (an SLF4J 2 service provider, or an SLF4J 1 binding) are visible, loggers write through SLF4J;
 * otherwise they are silent, and no SLF4J class is ever loaded, so a missing {@code slf4j-api}
 * never fails and an API without a provider prints none of SLF4J's own warnings.
 *
 * <p>The check runs once per JVM. Thread-safe; never blocks beyond class loading.
 */
public final class Logs {
  private static final String API = "org.slf4j.LoggerFactory";
  private static final String PROVIDERS = "META-INF/services/org.slf4j.spi.SLF4JServiceProvider";
  private static final String BINDING = "org/slf4j/impl/StaticLoggerBinder.class";

  private Logs() {}

  /**
   * Returns the logger named after {@code owner}.
   *
   * @param owner the class that logs
   * @return an SLF4J-backed logger, or a silent one
   */
  public static Log of(Class<?> owner) {
    return Holder.SLF4J ? new Slf4jLog(owner) : SilentLog.INSTANCE;
  }

  /** Whether loggers write through SLF4J in this JVM. */
  public static boolean slf4jBound() {
    return Holder.SLF4J;
  }

  // Lazily initialised once, on the first logger.
  private static final class Holder {
    static final boolean SLF4J = detect();
  }

  private static boolean detect() {
    ClassLoader loader = Logs.class.getClassLoader();
    try {
      // Not initialised: only the presence of the API matters here.
      Class.forName(API, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
    Module self = Logs.class.getModule();
    if (self.isNamed()) {
      // On the module path providers are declared in module descriptors, not in resources: a
      // resolved org.slf4j module that this one reads is taken as bound.
      return self.getLayer() != null
          && self.getLayer().findModule("org.slf4j").map(self::canRead).orElse(false);
    }
    try {
      return System.getProperty("slf4j.provider") != null
          || loader.getResources(PROVIDERS).hasMoreElements()
          || loader.getResource(BINDING) != null;
    } catch (IOException | SecurityException e) {
      return false;
    }
  }
}
