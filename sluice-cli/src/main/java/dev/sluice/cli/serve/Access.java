/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import com.sun.net.httpserver.Headers;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Who may do what on the console, decided from a request's headers alone:
 *
 * <ul>
 *   <li>Every request must name this server in {@code Host} (the listen address, or {@code
 *       localhost} on loopback; any name with the right port when listening on every interface), so
 *       a web page on another site cannot reach the console through a name it controls (DNS
 *       rebinding).
 *   <li>Reads (the page, {@code /api/status}, {@code /api/events}) are open on loopback and need
 *       the token anywhere else.
 *   <li>Every change needs the token and the same origin: an {@code Origin} header, when sent (a
 *       browser always sends one with a POST), must be {@code http://} plus the {@code Host}; a
 *       {@code Sec-Fetch-Site} header, when sent, must say {@code same-origin}.
 * </ul>
 *
 * The token comes as {@code Authorization: Bearer TOKEN} (scripts) or in the console's cookie,
 * which the server sets when the user opens {@code /?token=TOKEN} ({@code HttpOnly}, {@code
 * SameSite=Strict}, named after the port, since browsers share cookies between the ports of a
 * host).
 *
 * <p>Immutable and thread-safe; never blocks.
 */
final class Access {
  /**
   * Why a request was refused.
   *
   * @param status the HTTP status
   * @param code the error code the JSON answer carries
   * @param message what to do about it
   */
  record Refusal(int status, String code, String message) {}

  private final Listen listen;
  private final int port;
  private final ServeToken token;

  Access(Listen listen, int port, ServeToken token) {
    this.listen = listen;
    this.port = port;
    this.token = token;
  }

  /** The name of the cookie that carries the token to this server. */
  String cookieName() {
    return "sluice-serve-" + port;
  }

  /** Whether the token matches. */
  boolean isToken(String given) {
    return token.matches(given);
  }

  /** Whether reads need the token: anywhere but on loopback. */
  boolean readsNeedToken() {
    return !listen.loopback();
  }

  /** Why a read is refused, or empty. */
  Optional<Refusal> checkRead(Headers h) {
    Optional<Refusal> host = checkHost(h);
    if (host.isPresent() || !readsNeedToken() || hasToken(h)) {
      return host;
    }
    return Optional.of(
        new Refusal(
            401,
            "unauthorized",
            "this console listens beyond loopback: open the URL that sluice serve printed"
                + " (with ?token=...), or send Authorization: Bearer TOKEN"));
  }

  /** Why a change is refused, or empty. */
  Optional<Refusal> checkChange(Headers h) {
    Optional<Refusal> host = checkHost(h);
    if (host.isPresent()) {
      return host;
    }
    if (!hasToken(h)) {
      return Optional.of(
          new Refusal(
              401,
              "unauthorized",
              "a change needs the token: open the URL that sluice serve printed (with"
                  + " ?token=...), or send Authorization: Bearer TOKEN"));
    }
    String origin = h.getFirst("Origin");
    String expected = "http://" + h.getFirst("Host");
    if (origin != null && !origin.equalsIgnoreCase(expected)) {
      return Optional.of(
          new Refusal(
              403,
              "cross_origin",
              "Origin '" + origin + "' is not this console's (" + expected + ")"));
    }
    String site = h.getFirst("Sec-Fetch-Site");
    if (site != null && !site.equals("same-origin")) {
      return Optional.of(
          new Refusal(403, "cross_origin", "Sec-Fetch-Site '" + site + "' is not same-origin"));
    }
    return Optional.empty();
  }

  /** Whether the request carries the token, as a bearer header or in the console's cookie. */
  boolean hasToken(Headers h) {
    String auth = h.getFirst("Authorization");
    if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return token.matches(auth.substring(7).strip());
    }
    return cookie(h).map(token::matches).orElse(false);
  }

  private Optional<String> cookie(Headers h) {
    List<String> lines = h.getOrDefault("Cookie", List.of());
    String prefix = cookieName() + "=";
    for (String line : lines) {
      for (String part : line.split(";")) {
        String p = part.strip();
        if (p.startsWith(prefix)) {
          return Optional.of(p.substring(prefix.length()));
        }
      }
    }
    return Optional.empty();
  }

  private Optional<Refusal> checkHost(Headers h) {
    String host = h.getFirst("Host");
    if (host != null && allowedHosts().contains(host.toLowerCase(Locale.ROOT))) {
      return Optional.empty();
    }
    if (host != null && listen.wildcard() && host.endsWith(":" + port)) {
      return Optional.empty();
    }
    return Optional.of(
        new Refusal(
            421,
            "wrong_host",
            "Host '" + host + "' is not this console's; use http://" + hostPort() + "/"));
  }

  private Set<String> allowedHosts() {
    if (listen.loopback()) {
      return new HashSet<>(
          List.of(hostPort(), "localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port));
    }
    return Set.of(hostPort());
  }

  /** This server as a {@code Host} header names it. */
  String hostPort() {
    return listen.urlHost() + ":" + port;
  }
}
