/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import java.io.IOException;
import java.net.http.HttpResponse;

/**
 * Reads what an application needs from a response while the attempt's lease is held ({@link
 * HttpLimiter#sendAndRead}); the body is closed once it returns or throws.
 *
 * <p>Called once, on the calling thread; it may block while it reads.
 *
 * @param <T> the body type of the response
 * @param <R> what it makes of the response
 */
@FunctionalInterface
public interface ResponseReader<T, R> {
  /**
   * Reads the response.
   *
   * @param response the delivered response; its body may be read part-way and left
   * @return what the call returns
   * @throws IOException if reading fails; the call throws it
   */
  R read(HttpResponse<T> response) throws IOException;
}
