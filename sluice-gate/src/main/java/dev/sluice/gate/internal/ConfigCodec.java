/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.sluice.gate.ConfigChange;
import dev.sluice.gate.ConfigValue;
import java.io.IOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The configuration part of the gate's state document: the values last adopted ({@code config}) and
 * their history ({@code configHistory}). A home that never had a configuration file has neither
 * field, so its document is what it was before configuration files existed. Stateless and
 * thread-safe.
 */
final class ConfigCodec {
  private ConfigCodec() {}

  /** Writes the fields, if there is anything to write. */
  static void write(JsonGenerator g, GateState s) throws IOException {
    if (!s.config.isEmpty()) {
      g.writeArrayFieldStart("config");
      for (Map.Entry<String, String> e : s.config.entrySet()) {
        g.writeStartObject();
        g.writeStringField("key", e.getKey());
        g.writeStringField("value", e.getValue());
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    if (!s.configHistory.isEmpty()) {
      g.writeArrayFieldStart("configHistory");
      for (ConfigChange c : s.configHistory) {
        g.writeStartObject();
        g.writeNumberField("at", c.at().toEpochMilli());
        g.writeStringField("key", c.key());
        g.writeStringField("via", c.via().name());
        g.writeStringField("old", c.before().text());
        g.writeStringField("oldSource", c.before().source().name());
        g.writeStringField("new", c.after().text());
        g.writeStringField("newSource", c.after().source().name());
        g.writeStringField("actor", c.actor());
        g.writeStringField("reason", c.reason());
        g.writeEndObject();
      }
      g.writeEndArray();
    }
  }

  /** Reads the fields into {@code s}; the settings follow the values. */
  static void read(JsonDoc root, GateState s) {
    if (root.has("config")) {
      Map<String, String> values = new LinkedHashMap<>();
      for (JsonDoc e : root.docs("config")) {
        values.put(e.str("key"), e.str("value"));
      }
      s.configure(values);
    }
    if (root.has("configHistory")) {
      for (JsonDoc c : root.docs("configHistory")) {
        s.configHistory.add(
            new ConfigChange(
                Instant.ofEpochMilli(c.num("at")),
                c.str("key"),
                ConfigChange.Via.valueOf(c.str("via")),
                new ConfigValue(c.str("old"), ConfigValue.Source.valueOf(c.str("oldSource"))),
                new ConfigValue(c.str("new"), ConfigValue.Source.valueOf(c.str("newSource"))),
                c.str("actor"),
                c.str("reason")));
      }
    }
  }
}
