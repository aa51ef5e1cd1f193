/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * Where {@code sluice serve} listens, as {@code --listen HOST:PORT} gives it: an IPv4 address, a
 * host name, or an IPv6 address in brackets, and a port from 0 (any free port) to 65535.
 *
 * <p>Immutable and thread-safe. {@link #parse} may block on a name lookup when given a host name.
 *
 * @param host the host as written (brackets removed), lower case
 * @param port the port, 0 for any free one
 * @param address the address it names
 */
public record Listen(String host, int port, InetAddress address) {
  /** The default: loopback only, so nothing off this machine reaches the console. */
  public static final String DEFAULT = "127.0.0.1:7780";

  private static final String FORM = "expected HOST:PORT, for example " + DEFAULT;

  /**
   * Reads a {@code --listen} value.
   *
   * @throws IllegalArgumentException naming the value and what is allowed
   */
  public static Listen parse(String text) {
    if (text == null || text.isBlank()) {
      throw bad(text, FORM);
    }
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw bad(text, FORM);
    }
    String host = text.substring(0, colon);
    String portText = text.substring(colon + 1);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      throw bad(text, "an IPv6 address goes in brackets, for example [::1]:7780");
    }
    if (host.isEmpty() || !host.matches("[A-Za-z0-9.:%_-]+")) {
      throw bad(text, FORM);
    }
    int port;
    try {
      port = Integer.parseInt(portText);
    } catch (NumberFormatException e) {
      throw bad(text, "the port must be a whole number from 0 to 65535");
    }
    if (port < 0 || port > 65535) {
      throw bad(text, "the port must be a whole number from 0 to 65535");
    }
    try {
      return new Listen(host.toLowerCase(Locale.ROOT), port, InetAddress.getByName(host));
    } catch (UnknownHostException e) {
      throw bad(text, "no address is known for host '" + host + "'");
    }
  }

  private static IllegalArgumentException bad(String text, String why) {
    return new IllegalArgumentException("--listen '" + text + "' is not an address: " + why);
  }

  /** Whether only this machine can connect: a loopback address. */
  public boolean loopback() {
    return address.isLoopbackAddress();
  }

  /** Whether it listens on every interface ({@code 0.0.0.0} or {@code [::]}). */
  public boolean wildcard() {
    return address.isAnyLocalAddress();
  }

  /** The socket address to bind. */
  public InetSocketAddress socket() {
    return new InetSocketAddress(address, port);
  }

  /** The host as it goes into a URL or a {@code Host} header: IPv6 in brackets. */
  public String urlHost() {
    return host.contains(":") ? "[" + host + "]" : host;
  }
}
