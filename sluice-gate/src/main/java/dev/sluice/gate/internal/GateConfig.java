/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.GateSettings;

/**
 * What the configuration keys set: the gate's settings and the pool a request without one uses.
 * Immutable and thread-safe.
 *
 * @param settings timing and retention rules
 * @param defaultPool the pool {@code run} and {@code acquire} use without {@code --pool}
 */
public record GateConfig(GateSettings settings, String defaultPool) {
  /** A configuration being put together key by key; not thread-safe. */
  static final class Builder {
    final GateSettings.Builder settings = GateSettings.builder();
    String defaultPool = AcquireRequest.DEFAULT_POOL;

    GateConfig build() {
      return new GateConfig(settings.build(), defaultPool);
    }
  }
}
