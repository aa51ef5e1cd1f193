/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterOptions;
import dev.sluice.spi.PoolStore;
import java.util.Objects;

/** Creates limiters; the bridge from {@link Limiter#open} to the runtime. Not part of the API. */
public final class LimiterFactory {
  private LimiterFactory() {}

  /**
   * Opens a limiter; see {@link Limiter#open(PoolStore, LimiterConfig, LimiterOptions)}.
   *
   * @param store the pool's store
   * @param config the pool's configuration
   * @param options local settings
   * @return the limiter
   */
  public static Limiter open(PoolStore store, LimiterConfig config, LimiterOptions options) {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(options, "options");
    SharedPool pool = PoolRegistry.attach(store, config);
    return new LimiterImpl(pool, options);
  }
}
