package org.netpubsub.controller.nbi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The remote apps' leases: caps per client, overall and per app's topics; expiry; revocation. */
class RemoteAppLeasesTest {
  final RemoteAppLeases leases =
      new RemoteAppLeases(new RemoteAppLeases.Limits(2, 3, 2, Duration.ofSeconds(60)));

  @Test
  void capsHoldPerClientOverallAndPerAppsTopics() {
    assertThat(leases.admit("alpha", "a1", 0)).isEmpty();
    assertThat(leases.admit("alpha", "a2", 0)).isEmpty();
    assertThat(leases.admit("alpha", "a1", 0)).as("a renewal takes no place").isEmpty();
    assertThat(leases.admit("alpha", "a3", 0))
        .contains("client 'alpha' has 2 apps registered already (the limit)");
    assertThat(leases.admit("beta", "b1", 0)).isEmpty();
    assertThat(leases.admit("beta", "b2", 0))
        .contains("the bus has 3 remote apps registered already (the limit)");
    leases.release("a2"); // a BYE frees the client's place and the bus's
    assertThat(leases.admit("beta", "b2", 0)).isEmpty();
    assertThat(leases.addTopic("b1")).isEmpty();
    assertThat(leases.addTopic("b1")).isEmpty();
    assertThat(leases.addTopic("b1")).contains("app 'b1' has 2 topics already (the limit)");
    leases.removeTopic("b1");
    assertThat(leases.addTopic("b1")).isEmpty();
    assertThat(leases.addTopic("nobody")).contains("app 'nobody' is not registered");
    assertThat(leases.size()).isEqualTo(3);
  }

  @Test
  void withoutCurveOnlyTheOverallCapHolds() {
    for (int i = 0; i < 3; i++) {
      assertThat(leases.admit(null, "app" + i, 0)).isEmpty();
    }
    assertThat(leases.admit(null, "app3", 0)).isPresent();
  }

  @Test
  void aSilentAppExpiresAndAnyMessageRenewsItsLease() {
    leases.admit("alpha", "quiet", 0);
    leases.admit("alpha", "busy", 0);
    assertThat(leases.touch("busy", 50_000)).isTrue();
    assertThat(leases.expire(60_000)).as("silent 60 s: not over the limit yet").isEmpty();
    assertThat(leases.expire(60_001)).containsExactly("quiet");
    assertThat(leases.touch("quiet", 60_001)).as("expired: no lease to renew").isFalse();
    assertThat(leases.expire(110_001)).containsExactly("busy");
    assertThat(leases.size()).isZero();
    // the client's places are free again
    assertThat(leases.admit("alpha", "x", 110_001)).isEmpty();
    assertThat(leases.admit("alpha", "y", 110_001)).isEmpty();
  }

  @Test
  void revokingDropsTheAppsTheirClientMayNoLongerActAs() {
    leases.admit("alpha", "a1", 0);
    leases.admit("beta", "b1", 0);
    leases.admit(null, "plain", 0);
    List<String> gone = leases.revoke((client, app) -> client.equals("beta"));
    assertThat(gone).containsExactly("a1");
    assertThat(leases.touch("b1", 1)).isTrue();
    assertThat(leases.touch("plain", 1)).as("no client: nothing to revoke").isTrue();
    assertThat(leases.admit("alpha", "a2", 1)).isEqualTo(Optional.empty());
  }
}
