package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.netpubsub.edge.broker.DatagramCodec;
import org.netpubsub.edge.broker.EdgeMessage;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.EdgeKeys;
import org.netpubsub.edge.link.TestKeys;

class OriginCheckTest {
  private static final List<byte[]> MASTER = List.of(HexFormat.of().parseHex("5a".repeat(32)));

  private static DatagramAuth edge(String name) {
    return DatagramAuth.of(EdgeKeys.derive(MASTER, name));
  }

  private static byte[] datagram(String origin, DatagramAuth sealer) throws Exception {
    return TestKeys.seal(
        sealer,
        DatagramCodec.encode(
            new EdgeMessage(origin, 7, "t/1", "x".getBytes(StandardCharsets.UTF_8), 0, false)));
  }

  @Test
  void aDatagramFromEdgeXClaimingEdgeYIsRefusedAndOnlyItsOwnNameAuthenticates() throws Exception {
    OriginCheck check = new OriginCheck(DatagramAuth.of(MASTER));
    DatagramAuth mallory = edge("mallory");
    byte[] asParis = datagram("paris", mallory);
    assertThat(check.open(asParis, 0, asParis.length)).isEqualTo(-1);
    assertThat(check.refusal()).isEqualTo("unauthenticated");
    byte[] asItself = datagram("mallory", mallory);
    assertThat(check.open(asItself, 0, asItself.length)).isEqualTo(asItself.length - 16);
    byte[] real = datagram("paris", edge("paris"));
    assertThat(check.open(real, 0, real.length)).isEqualTo(real.length - 16);
    // an edge trusted with the deployment keys may still send as it always did
    byte[] trusted = datagram("paris", DatagramAuth.of(MASTER));
    assertThat(check.open(trusted, 0, trusted.length)).isEqualTo(trusted.length - 16);
    // a name that is no edge name derives no key
    byte[] junk = asItself.clone();
    junk[5] = '/';
    assertThat(check.open(junk, 0, junk.length)).isEqualTo(-1);
  }

  @Test
  void whatIsRelayedIsResealedOnlyForAnEdgeHoldingItsOwnKeyOnly() throws Exception {
    OriginCheck check = new OriginCheck(DatagramAuth.of(MASTER));
    byte[] d = datagram("paris", edge("paris"));
    byte[] asSent = d.clone();
    int body = check.open(d, 0, d.length);
    // rome holds its own key only: re-sealed for it
    assertThat(check.sealFor(d, 0, body, "rome", true)).isEqualTo(d.length);
    assertThat(edge("rome").open(d, 0, d.length)).isEqualTo(body);
    assertThat(edge("oslo").open(d, 0, d.length)).isEqualTo(-1);
    assertThat(edge("paris").open(d, 0, d.length)).isEqualTo(-1);
    // oslo holds the deployment keys: paris's own tag, put back after rome's re-seal
    assertThat(check.sealFor(d, 0, body, "oslo", false)).isEqualTo(d.length);
    assertThat(d).isEqualTo(asSent);
    assertThat(DatagramAuth.of(MASTER).forEdge("oslo").open(d, 0, d.length)).isEqualTo(-1);
    assertThat(edge("paris").open(d, 0, d.length)).isEqualTo(body); // oslo checks paris's key
    // a deployment-signed datagram goes to a deployment-key edge without any new HMAC
    byte[] trusted = datagram("lyon", DatagramAuth.of(MASTER));
    byte[] trustedSent = trusted.clone();
    body = check.open(trusted, 0, trusted.length);
    assertThat(check.sealFor(trusted, 0, body, "oslo", false)).isEqualTo(trusted.length);
    assertThat(trusted).isEqualTo(trustedSent);
    assertThat(check.cached()).isEqualTo(2); // paris and rome: lyon signed with the deployment keys
  }

  @Test
  void aRevokedEdgeIsRefusedWhateverItsKeyAndFollowsTheLastSet() throws Exception {
    OriginCheck check = new OriginCheck(DatagramAuth.of(MASTER));
    byte[] d = datagram("mallory", edge("mallory"));
    assertThat(check.open(d, 0, d.length)).isPositive();
    check.revoke(Set.of("mallory"));
    assertThat(check.open(d, 0, d.length)).isEqualTo(-1);
    assertThat(check.refusal()).isEqualTo("revoked_origin");
    byte[] viaMaster = datagram("mallory", DatagramAuth.of(MASTER));
    assertThat(check.open(viaMaster, 0, viaMaster.length)).isEqualTo(-1);
    check.revoke(Set.of());
    assertThat(check.open(d, 0, d.length)).isPositive();
  }

  @Test
  void aRotationOfTheDeploymentKeysMovesEveryEdgesKey() throws Exception {
    DatagramAuth deployment = DatagramAuth.of(MASTER);
    OriginCheck check = new OriginCheck(deployment);
    byte[] old = datagram("paris", edge("paris"));
    assertThat(check.open(old, 0, old.length)).isPositive();
    byte[] next = HexFormat.of().parseHex("5b".repeat(32));
    deployment.update(List.of(next));
    assertThat(check.open(old, 0, old.length)).isEqualTo(-1);
    byte[] fresh = datagram("paris", DatagramAuth.of(EdgeKeys.derive(List.of(next), "paris")));
    assertThat(check.open(fresh, 0, fresh.length)).isPositive();
  }

  @Test
  void derivedKeysAreBoundedAndOnlyNamesThatAuthenticatedTakeAPlace() throws Exception {
    OriginCheck check = new OriginCheck(DatagramAuth.of(MASTER), 64);
    DatagramAuth mallory = edge("mallory");
    for (int i = 0; i < 74; i++) {
      byte[] d = datagram("e" + i, mallory);
      assertThat(check.open(d, 0, d.length)).isEqualTo(-1);
    }
    assertThat(check.cached()).isZero();
    for (int i = 0; i < 74; i++) {
      byte[] d = datagram("e" + i, edge("e" + i));
      assertThat(check.open(d, 0, d.length)).isPositive();
    }
    assertThat(check.cached()).isEqualTo(64);
  }
}
