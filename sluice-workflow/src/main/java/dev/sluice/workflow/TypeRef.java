/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Objects;

/**
 * A full Java type, generic arguments included, for values the codec writes and reads: {@code new
 * TypeRef<List<Order>>() {}} captures {@code List<Order>}, where {@code List.class} could not.
 * {@link #of(Class)} wraps a plain class.
 *
 * <p>Immutable and thread-safe. Two type references are equal when they denote the same type.
 *
 * @param <T> the type
 */
public abstract class TypeRef<T> {
  private final Type type;

  /** Captures the type argument of the anonymous subclass. */
  protected TypeRef() {
    Type superclass = getClass().getGenericSuperclass();
    if (!(superclass instanceof ParameterizedType p)) {
      throw new IllegalArgumentException(
          "TypeRef must be created with a type argument, as in new TypeRef<List<String>>() {}");
    }
    this.type = p.getActualTypeArguments()[0];
  }

  private TypeRef(Type type) {
    this.type = Objects.requireNonNull(type, "type");
  }

  /**
   * Returns a type reference to a plain class.
   *
   * @param type the class; a primitive class stands for its wrapper
   * @param <T> the type
   * @return the reference
   */
  public static <T> TypeRef<T> of(Class<T> type) {
    return new TypeRef<>(type) {};
  }

  /** Returns the type. */
  public Type type() {
    return type;
  }

  /** Returns the type's class without its arguments, primitives boxed. */
  public Class<?> rawType() {
    return box(raw(type));
  }

  private static Class<?> raw(Type t) {
    if (t instanceof Class<?> c) {
      return c;
    }
    if (t instanceof ParameterizedType p) {
      return raw(p.getRawType());
    }
    if (t instanceof GenericArrayType g) {
      return java.lang.reflect.Array.newInstance(raw(g.getGenericComponentType()), 0).getClass();
    }
    // A type variable or wildcard: nothing narrower than Object can be checked.
    return Object.class;
  }

  private static Class<?> box(Class<?> c) {
    if (!c.isPrimitive()) {
      return c;
    }
    if (c == int.class) {
      return Integer.class;
    } else if (c == long.class) {
      return Long.class;
    } else if (c == boolean.class) {
      return Boolean.class;
    } else if (c == double.class) {
      return Double.class;
    } else if (c == float.class) {
      return Float.class;
    } else if (c == short.class) {
      return Short.class;
    } else if (c == byte.class) {
      return Byte.class;
    } else if (c == char.class) {
      return Character.class;
    }
    return Void.class;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TypeRef<?> other && type.equals(other.type);
  }

  @Override
  public int hashCode() {
    return type.hashCode();
  }

  @Override
  public String toString() {
    return type.getTypeName();
  }
}
