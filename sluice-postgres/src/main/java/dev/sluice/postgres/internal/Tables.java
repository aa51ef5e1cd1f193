/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Where a store's tables live: a schema and a prefix for every table name, both checked lower-case
 * SQL identifiers, so that the names below can be put into SQL text as they are.
 *
 * @param schema the schema
 * @param prefix the prefix of every table name
 */
public record Tables(String schema, String prefix) {
  /** Checks the components. */
  public Tables {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(prefix, "prefix");
  }

  /** The quoted schema. */
  String quotedSchema() {
    return quote(schema);
  }

  /** The table of schema versions, one row per component. */
  String schemaVersions() {
    return table("schema_version");
  }

  /** The table of limiter pools: configuration, format and state row. */
  String pools() {
    return table("limiter_pools");
  }

  /** The table of the pools' owners: lock keys and heartbeats. */
  String owners() {
    return table("limiter_owners");
  }

  /**
   * A table of the workflow store, qualified and with the prefix ({@code wf_execution} becomes
   * {@code "schema"."prefixwf_execution"}); the core's {@code sluice_meta} is {@code
   * prefixworkflow_meta}, so that its name says whose it is.
   */
  String workflowTable(String name) {
    return table(name.equals("sluice_meta") ? "workflow_meta" : name);
  }

  /** An index of the workflow store: in its table's schema, with the prefix. */
  String workflowIndex(String name) {
    return quote(prefix + name);
  }

  /** The table of the workflow store's owners: lock keys and heartbeats. */
  String workflowOwners() {
    return table("workflow_owners");
  }

  /** The LISTEN channel of the workflow store in these tables. */
  String workflowChannel() {
    return "sluice_wf_" + digest(schema + "." + prefix).substring(0, 24);
  }

  /** The advisory lock that makes the workflow store's units of work run one at a time. */
  long workflowLockKey() {
    return key("sluice-workflows:" + schema + "." + prefix);
  }

  /** The unqualified name of the schema-version table, for a catalog look-up. */
  String schemaVersionsName() {
    return prefix + "schema_version";
  }

  /** The name of an index on the owners table. */
  String ownersPoolIndex() {
    return quote(prefix + "limiter_owners_pool");
  }

  /** Names the tables in messages: {@code schema.prefix*}. */
  String describe() {
    return schema + "." + prefix + "*";
  }

  /**
   * The LISTEN channel of a pool: a digest of its full name, so that it is a short identifier
   * whatever the pool is called.
   */
  String channel(String pool) {
    return "sluice_" + digest(schema + "." + prefix + ":" + pool).substring(0, 24);
  }

  /** The advisory lock that serializes schema creation and migration of these tables. */
  long schemaLockKey() {
    return key("sluice-schema:" + schema + "." + prefix);
  }

  private String table(String name) {
    return quote(schema) + "." + quote(prefix + name);
  }

  private static String quote(String identifier) {
    return "\"" + identifier + "\"";
  }

  /** A 64-bit advisory lock key derived from {@code text}. */
  static long key(String text) {
    byte[] d = sha256(text);
    long k = 0;
    for (int i = 0; i < 8; i++) {
      k = (k << 8) | (d[i] & 0xff);
    }
    return k;
  }

  private static String digest(String text) {
    return HexFormat.of().formatHex(sha256(text));
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform provides SHA-256", e);
    }
  }
}
