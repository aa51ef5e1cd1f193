/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/** This process's user and groups, read once from {@code /proc/self/status} (Linux). */
final class ProcessIdentity {
  private static volatile Identity cached;

  private ProcessIdentity() {}

  private record Identity(int uid, Set<Integer> groups) {}

  static int uid() {
    return identity().uid();
  }

  static Set<Integer> groups() {
    return identity().groups();
  }

  private static Identity identity() {
    Identity id = cached;
    if (id == null) {
      id = read();
      cached = id;
    }
    return id;
  }

  private static Identity read() {
    int uid = -1;
    Set<Integer> groups = new HashSet<>();
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Uid:")) {
          uid = Integer.parseInt(line.substring(4).trim().split("\\s+")[1]);
        } else if (line.startsWith("Gid:")) {
          groups.add(Integer.parseInt(line.substring(4).trim().split("\\s+")[1]));
        } else if (line.startsWith("Groups:")) {
          for (String g : line.substring(7).trim().split("\\s+")) {
            if (!g.isEmpty()) {
              groups.add(Integer.parseInt(g));
            }
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("cannot read this process's user from /proc/self/status", e);
    }
    return new Identity(uid, Set.copyOf(groups));
  }
}
