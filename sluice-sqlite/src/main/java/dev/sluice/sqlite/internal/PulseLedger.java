/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

/**
 * What this JVM has examined of a pool's commits, to tell what a pulse asks of its owners: nothing
 * (seen already), the named owners only, or everyone (a pulse was missed, or one is unreadable).
 *
 * <p>A commit that failed after its pulse leaves its version free, and the next commit reuses it
 * with other owners: a pulse whose version was examined but whose text differs from the one
 * examined at that version is such a commit, and everyone looks.
 *
 * <p>Thread-safe.
 */
final class PulseLedger {
  /** What a pulse asks. */
  enum Wake {
    NONE,
    NAMED,
    EVERYONE
  }

  /** Every commit up to this version has been examined for this JVM's owners. */
  private long examinedUpTo;

  /** The pulse examined at {@link #examinedUpTo}, or {@code null} if it was not a pulse read. */
  private String examinedText;

  /** Starts with every commit up to {@code version} examined: owners opened now are new. */
  PulseLedger(long version) {
    this.examinedUpTo = version;
  }

  /**
   * Records a pulse read from the pulse file.
   *
   * @param text the file's text
   * @param p its parse, or {@code null} if it is not a pulse
   * @return whom to wake (the named owners only if the pulse was not written by this JVM is the
   *     caller's business)
   */
  synchronized Wake pulse(String text, PulseText p) {
    if (p == null) {
      return Wake.EVERYONE;
    }
    if (p.version() < examinedUpTo) {
      return Wake.NONE;
    }
    if (p.version() == examinedUpTo) {
      if (examinedText == null || examinedText.equals(text)) {
        return Wake.NONE;
      }
      // The version came back with other content: the first commit of it failed after its pulse.
      examinedText = text;
      return Wake.EVERYONE;
    }
    boolean contiguous = p.previous() <= examinedUpTo;
    examinedUpTo = p.version();
    examinedText = text;
    return !contiguous || p.everyone() ? Wake.EVERYONE : Wake.NAMED;
  }

  /**
   * Records this JVM's own commit of {@code version}, whose pulse (if it wrote one) was {@code
   * text}, after a previous pulse of version {@code previousPulse}: if every pulse up to that one
   * was examined, so is everything up to this commit.
   */
  synchronized void committed(long version, long previousPulse, String text) {
    if (previousPulse <= examinedUpTo && version >= examinedUpTo) {
      if (version > examinedUpTo || text != null) {
        examinedText = text;
      }
      examinedUpTo = version;
    }
  }
}
