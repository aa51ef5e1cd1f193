/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.nio.channels.ServerSocketChannel;

/**
 * A one-time set-up of the JDK that a short-lived command pays for with its first {@link Owner},
 * its operation key and its permit token, done ahead on a helper thread while the command's own
 * thread opens its store: the JDK's Unix-domain socket support seeds a {@code SecureRandom} on
 * first use, which sets up the security providers (about 30 ms of CPU) that {@code
 * UUID.randomUUID}, {@code SecureRandom} and {@code MessageDigest} then find ready. The socket is
 * not used; a use that comes before this ends waits for the class being set up. (Warming
 * sqlite-jdbc's calendar data the same way made {@code sluice run} slower: its own thread needs
 * that data almost at once, and waited.)
 *
 * <p>Thread-safe; never fails (the real use reports any problem).
 */
public final class HeadStart {
  private HeadStart() {}

  /** Does the set-up; blocks for about 30 ms of CPU the first time. */
  public static void run() {
    try {
      ServerSocketChannel.open(StandardProtocolFamily.UNIX).close();
    } catch (IOException | RuntimeException e) {
      // Only a head start: Owner.create opens its own socket and says what went wrong.
    }
  }
}
