/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.Optional;

/**
 * The checks every route starts with: the method, and {@link Access}'s verdict. Each answers the
 * refusal itself. Stateless and thread-safe; blocks on the connection when it answers.
 */
final class Routes {
  private Routes() {}

  /** Whether the request uses {@code method}; if not, answers 405. */
  static boolean method(HttpExchange ex, String method) throws IOException {
    if (ex.getRequestMethod().equals(method)) {
      return true;
    }
    ex.getResponseHeaders().set("Allow", method);
    Exchanges.error(
        ex,
        405,
        "method_not_allowed",
        ex.getRequestMethod()
            + " "
            + ex.getRequestURI().getPath()
            + " is not served; use "
            + method);
    return false;
  }

  /** Whether there is a refusal; if so, answers it. */
  static boolean refused(HttpExchange ex, Optional<Access.Refusal> refusal) throws IOException {
    if (refusal.isEmpty()) {
      return false;
    }
    Access.Refusal r = refusal.get();
    Exchanges.error(ex, r.status(), r.code(), r.message());
    return true;
  }
}
