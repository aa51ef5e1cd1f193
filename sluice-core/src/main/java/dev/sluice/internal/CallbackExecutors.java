/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The default home of {@code schedule} callbacks: a virtual thread per callback where the running
 * JVM has them (found at run time, since the code is compiled for Java 17), else a cached pool of
 * daemon threads named {@code sluice-<pool>-N}.
 */
final class CallbackExecutors {
  private static final MethodHandle VIRTUAL = findVirtualFactory();

  private CallbackExecutors() {}

  /** Whether callbacks run on virtual threads in this JVM. */
  static boolean virtualThreads() {
    return VIRTUAL != null;
  }

  static ExecutorService forPool(String pool) {
    if (VIRTUAL != null) {
      try {
        return (ExecutorService) VIRTUAL.invokeExact();
      } catch (Throwable e) {
        // Fall through to platform threads: the factory exists but refused to work.
      }
    }
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor pool0 =
        new ThreadPoolExecutor(
            0,
            Integer.MAX_VALUE,
            60,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            r -> {
              Thread t = new Thread(r, "sluice-" + pool + "-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    return pool0;
  }

  private static MethodHandle findVirtualFactory() {
    try {
      return MethodHandles.publicLookup()
          .findStatic(
              java.util.concurrent.Executors.class,
              "newVirtualThreadPerTaskExecutor",
              MethodType.methodType(ExecutorService.class));
    } catch (NoSuchMethodException | IllegalAccessException e) {
      return null;
    }
  }
}
