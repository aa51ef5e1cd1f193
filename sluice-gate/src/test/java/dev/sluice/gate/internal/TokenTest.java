/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import static dev.sluice.gate.internal.GateFixture.process;
import static dev.sluice.gate.internal.GateFixture.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.gate.GateException;
import dev.sluice.gate.GateException.Code;
import dev.sluice.gate.TicketState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Tokens: unknown and forged ones, the wrong kind, and the bound kept per request. */
class TokenTest {
  private final GateFixture f = new GateFixture(2);

  @Test
  void aForgedOrMissingTokenIsUnknownToEveryVerb() {
    f.grant("a", "op", 1);

    List<GateException> refusals =
        List.of(
            refused(() -> f.claim("forged")),
            refused(() -> f.machine.decline("forged", f.now)),
            refused(() -> f.release("forged")),
            refused(() -> f.permits.start("forged", process(10, 1), f.now)),
            refused(() -> f.permits.markStarted("forged", f.now)),
            refused(() -> f.claim(null)),
            refused(() -> f.release(null)));

    assertThat(refusals).extracting(GateException::code).containsOnly(Code.UNKNOWN_TOKEN);
    assertThat(f.pool().used()).isEqualTo(1);
  }

  @Test
  void tokensAreStoredOnlyAsHashes() {
    String permit = f.grant("a", "op", 1);

    assertThat(f.state.tokens).containsKey(TokenMint.hash(permit)).doesNotContainKey(permit);
    assertThat(TokenMint.hash(permit)).hasSize(64).isNotEqualTo(TokenMint.hash("t2"));
  }

  @Test
  void anOfferTokenCannotReleaseAndAPermitTokenCannotClaim() {
    String blocker = f.grant("x", "op", 2);
    f.queue("b", "op", 1);
    f.release(blocker);
    String offer = f.offerToken("b", "op", 1);

    GateException release = refused(() -> f.release(offer));
    assertThat(release.code()).isEqualTo(Code.WRONG_STATE);
    assertThat(release.getMessage()).contains("permit token", "offer token", "r2");
    assertThat(refused(() -> f.permits.start(offer, process(10, 1), f.now)).code())
        .isEqualTo(Code.WRONG_STATE);
    assertThat(f.ticket("r2").state()).isEqualTo(TicketState.OFFERED);

    String permit = f.claim(offer).permitToken();
    assertThat(refused(() -> f.claim(permit)).code()).isEqualTo(Code.WRONG_STATE);
    assertThat(refused(() -> f.machine.decline(permit, f.now)).code()).isEqualTo(Code.WRONG_STATE);
    assertThat(f.ticket("r2").state()).isEqualTo(TicketState.HELD);
  }

  @Test
  void everyAnswerMintsAFreshTokenAndOnlyTheFirstPermitTokenAndTheNewestAreKept() {
    List<String> tokens = new ArrayList<>();
    tokens.add(f.grant("a", "op", 1));
    for (int i = 0; i < Moves.TOKENS_PER_REQUEST; i++) {
      tokens.add(f.grant("a", "op", 1));
    }

    assertThat(tokens).doesNotHaveDuplicates().hasSize(Moves.TOKENS_PER_REQUEST + 1);
    assertThat(refused(() -> f.release(tokens.get(1))).code()).isEqualTo(Code.UNKNOWN_TOKEN);
    // The launcher that got the first permit token can still release it.
    assertThat(f.release(tokens.get(0)).alreadyReleased()).isFalse();
    assertThat(f.release(tokens.get(2)).alreadyReleased()).isTrue();
    assertThat(f.release(tokens.get(tokens.size() - 1)).alreadyReleased()).isTrue();
    assertThat(f.state.tokens).hasSize(Moves.TOKENS_PER_REQUEST);
  }
}
