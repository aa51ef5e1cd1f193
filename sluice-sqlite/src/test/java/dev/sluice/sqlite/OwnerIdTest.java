/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.local.Owner;
import dev.sluice.local.PoolDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Owner ids come back from stored state; a damaged one counts as a dead owner and never becomes a
 * file name, so proving it dead touches nothing outside {@code owners/}.
 */
class OwnerIdTest {
  @TempDir Path root;

  @Test
  void aMalformedOwnerIdIsDeadAndDeletesNothingOutsideTheOwnersDirectory() throws Exception {
    PoolDirectory dir = PoolDirectory.open(root.resolve("p"));
    dir.createLayout();
    Path victim = root.resolve("victim.lock");
    Files.writeString(victim, "keep me");

    assertThat(Owner.provenDead(dir, "../../victim")).isTrue();
    assertThat(Owner.provenDead(dir, "ABCDEF012345")).isTrue();
    assertThat(victim).hasContent("keep me");
  }

  @Test
  void aLiveOwnerIsNotDeadAndAClosedOneIs() throws Exception {
    PoolDirectory dir = PoolDirectory.open(root.resolve("p"));
    dir.createLayout();
    Owner owner = Owner.create(dir);
    assertThat(owner.id()).matches("[0-9a-f]{12}");
    assertThat(Owner.provenDead(dir, owner.id())).isFalse();
    owner.close();
    assertThat(Owner.provenDead(dir, owner.id())).isTrue();
  }
}
