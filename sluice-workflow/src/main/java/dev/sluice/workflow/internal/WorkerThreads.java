/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import java.lang.reflect.Method;

/**
 * Creates worker threads: virtual threads where the running JVM has them (found at run time, since
 * the code is compiled for Java 17), else platform daemon threads. Either way a runtime has exactly
 * as many workers as it was built with; a virtual worker only makes blocking in a step body
 * cheaper.
 */
final class WorkerThreads {
  /**
   * {@code Thread.ofVirtual()}, {@code Thread.Builder.name(String)}, {@code unstarted(Runnable)}.
   */
  private static final Method[] VIRTUAL = findVirtual();

  private WorkerThreads() {}

  /** Whether workers are virtual threads in this JVM. */
  static boolean virtual() {
    return VIRTUAL != null;
  }

  /** Returns an unstarted worker thread with this name. */
  static Thread create(String name, Runnable task) {
    if (VIRTUAL != null) {
      try {
        Object builder = VIRTUAL[0].invoke(null);
        builder = VIRTUAL[1].invoke(builder, name);
        return (Thread) VIRTUAL[2].invoke(builder, task);
      } catch (ReflectiveOperationException | RuntimeException e) {
        // Fall through to a platform thread: the factory exists but refused to work.
      }
    }
    Thread t = new Thread(task, name);
    t.setDaemon(true);
    return t;
  }

  private static Method[] findVirtual() {
    try {
      Class<?> builder = Class.forName("java.lang.Thread$Builder");
      return new Method[] {
        Thread.class.getMethod("ofVirtual"),
        builder.getMethod("name", String.class),
        builder.getMethod("unstarted", Runnable.class)
      };
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
