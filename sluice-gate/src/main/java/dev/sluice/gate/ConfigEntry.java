/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

/**
 * One known configuration key as {@code sluice config get} shows it.
 *
 * @param key the key, for example {@code offer.ttl}
 * @param value its value and where it comes from; for a line the gate cannot use, the value as
 *     written
 * @param line the file's line that sets it, or 0 when it takes the default
 * @param problem what is wrong with that line, or empty when nothing is
 * @param defaultValue the home's default
 * @param allowed what values are allowed
 * @param description what the key does
 */
public record ConfigEntry(
    String key,
    ConfigValue value,
    int line,
    String problem,
    String defaultValue,
    String allowed,
    String description) {}
