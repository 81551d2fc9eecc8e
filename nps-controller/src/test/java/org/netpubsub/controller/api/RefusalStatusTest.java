package org.netpubsub.controller.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.netpubsub.controller.pubsub.Refused;

/** Every typed refusal keeps the status code the REST API answered it with before. */
class RefusalStatusTest {
  @Test
  void eachRefusalHasItsStatus() {
    assertThat(RefusalStatus.of(new Refused.Invalid("x"))).isEqualTo(400);
    assertThat(RefusalStatus.of(new Refused.Unknown("x"))).isEqualTo(404);
    assertThat(RefusalStatus.of(new Refused.Conflict("x"))).isEqualTo(409);
    assertThat(RefusalStatus.of(new Refused.TooLarge("x"))).isEqualTo(413);
    assertThat(RefusalStatus.of(new Refused.RateLimited("x", OptionalLong.of(1)))).isEqualTo(429);
    assertThat(RefusalStatus.of(new Refused.SwitchFailed("x"))).isEqualTo(502);
    assertThat(RefusalStatus.of(new Refused.NotReady("x"))).isEqualTo(503);
    assertThat(RefusalStatus.of(new Refused.Unavailable("x", OptionalLong.of(1)))).isEqualTo(503);
    assertThat(RefusalStatus.of(new Refused.Unacknowledged("x"))).isEqualTo(504);
  }

  @Test
  void onlyASwitchsMissingAnswerLeavesTheRequestStanding() {
    assertThat(new Refused.Unacknowledged("x").requestStands()).isTrue();
    assertThat(new Refused.SwitchFailed("x").requestStands()).isTrue();
    assertThat(new Refused.Conflict("x").requestStands()).isFalse();
    assertThat(new Refused.NotReady("x").requestStands()).isFalse();
  }
}
