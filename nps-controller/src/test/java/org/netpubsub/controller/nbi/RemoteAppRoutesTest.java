package org.netpubsub.controller.nbi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which data connections get an app's messages: caps, expiry, revocation, departed peers. */
class RemoteAppRoutesTest {
  final RemoteAppRoutes routes = new RemoteAppRoutes(2, 2, 1000);
  static final byte[] ONE = {0, 0, 0, 0, 1};
  static final byte[] TWO = {0, 0, 0, 0, 2};
  static final byte[] THREE = {0, 0, 0, 0, 3};

  List<byte[]> ids(String app) {
    return List.of(routes.connections(app));
  }

  @Test
  void eachAppGoesToTheConnectionsThatJoinedItWithinTheCaps() {
    assertThat(routes.hello(ONE, "alpha", "a", 0)).isEmpty();
    assertThat(routes.hello(ONE, "alpha", "a", 0)).as("a renewal takes no place").isEmpty();
    assertThat(routes.hello(TWO, "beta", "b", 0)).isEmpty();
    assertThat(ids("a")).containsExactly(ONE);
    assertThat(ids("b")).containsExactly(TWO);
    assertThat(ids("c")).isEmpty();
    assertThat(routes.hello(THREE, "alpha", "a", 0))
        .contains("the bus has 2 data connections already (the limit)");
    assertThat(routes.hello(ONE, "alpha", "a2", 0)).isEmpty();
    assertThat(routes.hello(ONE, "alpha", "a3", 0))
        .contains("a data connection joins at most 2 apps (the limit)");
    routes.gone(TWO); // ZeroMQ no longer routes to it
    assertThat(ids("b")).isEmpty();
    assertThat(routes.hello(THREE, "alpha", "a", 0)).isEmpty();
    assertThat(ids("a")).containsExactlyInAnyOrder(ONE, THREE);
  }

  @Test
  void aConnectionSilentForTheLimitIsForgotten() {
    routes.hello(ONE, "alpha", "a", 0);
    routes.hello(TWO, "alpha", "a", 0);
    routes.hello(TWO, "alpha", "a", 800); // its keepalive
    assertThat(routes.expire(1000)).isZero();
    assertThat(routes.expire(1001)).isEqualTo(1);
    assertThat(ids("a")).containsExactly(TWO);
    assertThat(routes.size()).isEqualTo(1);
  }

  @Test
  void aRevokedRightStopsConnectionsMadeBefore() {
    routes.hello(ONE, "alpha", "a", 0);
    routes.hello(ONE, "alpha", "shared", 0);
    routes.hello(TWO, null, "shared", 0); // no CURVE: nothing to revoke
    routes.revoke((user, app) -> !app.equals("shared"));
    assertThat(ids("a")).containsExactly(ONE);
    assertThat(ids("shared")).containsExactly(TWO);
    routes.revoke((user, app) -> false);
    assertThat(ids("a")).isEmpty();
    assertThat(routes.size()).as("a connection left with no app is forgotten").isEqualTo(1);
  }

  @Test
  void aRoutingIdNowCarryingAnotherUserStartsAfresh() {
    routes.hello(ONE, "alpha", "a", 0);
    // a reused routing id (the earlier peer left) saying hello as beta never inherits a's messages
    assertThat(routes.hello(ONE, "beta", "b", 0)).isEmpty();
    assertThat(ids("a")).isEmpty();
    assertThat(ids("b")).containsExactly(ONE);
  }
}
