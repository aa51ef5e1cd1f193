/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.spi;

/**
 * What kind of {@code WorkflowContext} call recorded a step, so a replay that asks for another kind
 * under the same key is caught. Stores persist {@link #code()}.
 */
public enum StepKind {
  /** {@code step(...)}: a body's result or failure. */
  STEP("step"),
  /** {@code sleep} or {@code sleepUntil}: a wake time. */
  SLEEP("sleep"),
  /** {@code now()}: a recorded time. */
  NOW("now"),
  /** {@code randomUuid()}: a recorded UUID. */
  UUID("uuid"),
  /** {@code patched(changeId)}: a change marker. */
  PATCH("patch"),
  /** {@code StoreHandle.get}: a document as read. */
  STORE_GET("store-get"),
  /** {@code StoreHandle.update}: a document as changed. */
  STORE_UPDATE("store-update"),
  /** {@code StoreHandle.awaitCondition}: a document as it met the condition. */
  STORE_AWAIT("store-await"),
  /**
   * The context a {@link dev.sluice.workflow.WorkflowInstrumentation} carried from the submit (a
   * trace's {@code traceparent}), recorded with the execution at position 0; replays skip it.
   */
  CONTEXT("context");

  private final String code;

  StepKind(String code) {
    this.code = code;
  }

  /** Returns the stable code stores persist. */
  public String code() {
    return code;
  }

  /**
   * Returns the kind with this code.
   *
   * @param code a code from {@link #code()}
   * @return the kind
   * @throws IllegalArgumentException naming the code if no kind has it
   */
  public static StepKind ofCode(String code) {
    for (StepKind k : values()) {
      if (k.code.equals(code)) {
        return k;
      }
    }
    throw new IllegalArgumentException(
        "unknown step kind code '"
            + code
            + "' (allowed: step, sleep, now, uuid, patch, store-get, store-update, store-await,"
            + " context)");
  }
}
