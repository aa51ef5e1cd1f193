/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import java.util.Objects;

/**
 * A named, versioned workflow definition: its input and output types and its function. Register it
 * with {@link WorkflowRuntime.Builder#register}, then {@link WorkflowRuntime#submit} executions of
 * it.
 *
 * <pre>{@code
 * Workflow<Order, Receipt> checkout = Workflow.define("checkout", Order.class, Receipt.class,
 *     (ctx, order) -> {
 *       Payment p = ctx.step("charge", Payment.class, () -> payments.charge(order));
 *       ctx.sleep("cool-off", Duration.ofMinutes(10));
 *       return ctx.step("ship", Receipt.class, () -> shipping.ship(order, p));
 *     });
 * }</pre>
 *
 * <p>An execution records the version it started with and is run only by runtimes that registered
 * that version. Immutable and thread-safe (as long as the function is).
 *
 * @param name the workflow's name, 1 to 200 characters without control characters
 * @param version the version, at least 1
 * @param inputType the input's type
 * @param outputType the output's type
 * @param function the code
 * @param <I> the input type
 * @param <O> the output type
 */
public record Workflow<I, O>(
    String name,
    int version,
    TypeRef<I> inputType,
    TypeRef<O> outputType,
    WorkflowFunction<I, O> function) {
  /** The longest workflow name, execution id or step key. */
  public static final int MAX_NAME_LENGTH = 200;

  /** Checks every component, naming the field and the value. */
  public Workflow {
    checkName("workflow name", name);
    if (version < 1) {
      throw new IllegalArgumentException(
          "version of workflow '"
              + name
              + "' must be at least 1 (allowed 1.."
              + Integer.MAX_VALUE
              + "), was "
              + version);
    }
    Objects.requireNonNull(inputType, "inputType");
    Objects.requireNonNull(outputType, "outputType");
    Objects.requireNonNull(function, "function");
  }

  /**
   * Defines version 1 of a workflow.
   *
   * @param name the name
   * @param inputType the input's class
   * @param outputType the output's class
   * @param function the code
   * @param <I> the input type
   * @param <O> the output type
   * @return the definition
   */
  public static <I, O> Workflow<I, O> define(
      String name, Class<I> inputType, Class<O> outputType, WorkflowFunction<I, O> function) {
    return new Workflow<>(name, 1, TypeRef.of(inputType), TypeRef.of(outputType), function);
  }

  /**
   * Defines a version of a workflow.
   *
   * @param name the name
   * @param version at least 1
   * @param inputType the input's class
   * @param outputType the output's class
   * @param function the code
   * @param <I> the input type
   * @param <O> the output type
   * @return the definition
   */
  public static <I, O> Workflow<I, O> define(
      String name,
      int version,
      Class<I> inputType,
      Class<O> outputType,
      WorkflowFunction<I, O> function) {
    return new Workflow<>(name, version, TypeRef.of(inputType), TypeRef.of(outputType), function);
  }

  /**
   * Defines a version of a workflow with generic input or output types.
   *
   * @param name the name
   * @param version at least 1
   * @param inputType the input's type
   * @param outputType the output's type
   * @param function the code
   * @param <I> the input type
   * @param <O> the output type
   * @return the definition
   */
  public static <I, O> Workflow<I, O> define(
      String name,
      int version,
      TypeRef<I> inputType,
      TypeRef<O> outputType,
      WorkflowFunction<I, O> function) {
    return new Workflow<>(name, version, inputType, outputType, function);
  }

  /**
   * Checks a name, id or key: non-blank, at most {@link #MAX_NAME_LENGTH} characters, no control
   * characters.
   *
   * @param field what the value is, for the message
   * @param value the value
   * @return the value
   */
  static String checkName(String field, String value) {
    if (value == null) {
      throw new NullPointerException(field + " must not be null");
    }
    boolean control = value.chars().anyMatch(Character::isISOControl);
    if (value.isBlank() || value.length() > MAX_NAME_LENGTH || control) {
      throw new IllegalArgumentException(
          field
              + " must be 1 to "
              + MAX_NAME_LENGTH
              + " characters, not blank, without control characters, was '"
              + (value.length() > 64 ? value.substring(0, 64) + "…" : value)
              + "' ("
              + value.length()
              + " characters)");
    }
    return value;
  }
}
