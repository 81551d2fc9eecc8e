package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.netpubsub.edge.broker.DatagramCodec;
import org.netpubsub.edge.broker.EdgeMessage;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.EdgeKeys;
import org.netpubsub.edge.link.TestKeys;

/** Which key seals what for whom at an edge broker, and what opens (docs/security.md). */
class EdgeSealsTest {
  private static final List<byte[]> MASTER = List.of(HexFormat.of().parseHex("6b".repeat(32)));
  private static final InetSocketAddress BROKER = addr(9000);
  private static final InetSocketAddress PARIS = addr(9001); // own key only
  private static final InetSocketAddress LYON = addr(9002); // deployment keys
  private static final InetSocketAddress OSLO = addr(9003); // own key only
  private static final InetSocketAddress ROME = addr(9004); // the edge under test

  private static InetSocketAddress addr(int port) {
    return new InetSocketAddress("127.0.0.1", port);
  }

  private static DatagramAuth own(String edge) {
    return DatagramAuth.of(EdgeKeys.derive(MASTER, edge));
  }

  private static DatagramAuth pair(String a, String b) {
    return DatagramAuth.of(EdgeKeys.pair(MASTER, a, b));
  }

  /** A view where rome subscribes t/1, paris, lyon and oslo publish it. */
  private static OverlayView view(boolean romeOwnKey) {
    TopicState t =
        new TopicState(
            Optional.empty(),
            0,
            Map.of(
                "paris", new Endpoint("p", PARIS, Optional.empty(), true),
                "lyon", new Endpoint("l", LYON),
                "oslo", new Endpoint("o", OSLO, Optional.empty(), true)),
            Map.of("rome", new Endpoint("r", ROME, Optional.empty(), romeOwnKey)));
    return new OverlayView(new TreeMap<>(Map.of("t/1", t)), new TreeMap<>(), 0);
  }

  private static byte[] message(String origin, DatagramAuth sealer) throws Exception {
    return TestKeys.seal(
        sealer,
        DatagramCodec.encode(
            new EdgeMessage(origin, 1, "t/1", "x".getBytes(StandardCharsets.UTF_8), 1, false)));
  }

  private static byte[] nack(DatagramAuth sealer) {
    byte[] out = Arrays.copyOf("nack".getBytes(StandardCharsets.UTF_8), 4 + DatagramAuth.TAG);
    sealer.seal(out, 0, 4);
    return out;
  }

  private static int open(EdgeSeals s, byte[] d, InetSocketAddress from) {
    return s.open(d, 0, d.length, new java.net.DatagramPacket(d, d.length, from));
  }

  @Test
  void anEdgeHoldingTheDeploymentKeysOpensOwnKeyOriginsButNoEdgeClaimingAnother() throws Exception {
    DatagramAuth deployment = DatagramAuth.of(MASTER);
    EdgeSeals rome = new EdgeSeals(deployment, "rome", null);
    rome.observe(view(false));
    assertThat(rome.ownKeyOnly()).isFalse();
    byte[] body = message("paris", own("paris"));
    int n = body.length - DatagramAuth.TAG;
    // relayed by a routing broker with paris's own tag, as it came
    assertThat(open(rome, body, BROKER)).isEqualTo(n);
    assertThat(open(rome, message("lyon", deployment), BROKER)).isEqualTo(n - 1);
    // paris's key names paris only: not lyon, whether relayed or from paris's own address
    assertThat(open(rome, message("lyon", own("paris")), BROKER)).isEqualTo(-1);
    assertThat(open(rome, message("lyon", own("paris")), PARIS)).isEqualTo(-1);
    // paris's NACKs carry no origin: its key opens them from its registered address only
    assertThat(open(rome, nack(own("paris")), PARIS)).isEqualTo(4);
    assertThat(open(rome, nack(own("paris")), OSLO)).isEqualTo(-1);
    assertThat(open(rome, nack(own("paris")), BROKER)).isEqualTo(-1);
    assertThat(open(rome, nack(deployment), LYON)).isEqualTo(4);
    assertThat(open(rome, nack(own("lyon")), LYON)).isEqualTo(-1); // lyon holds the deployment's
  }

  @Test
  void anEdgeHoldingTheDeploymentKeysSealsForAnOwnKeyEdgeUnderItsKey() throws Exception {
    EdgeSeals rome = new EdgeSeals(DatagramAuth.of(MASTER), "rome", null);
    rome.observe(view(false));
    byte[] forParis = sealedBy(rome, PARIS);
    assertThat(own("paris").open(forParis, 0, forParis.length)).isEqualTo(4);
    assertThat(DatagramAuth.of(MASTER).open(forParis, 0, forParis.length)).isEqualTo(-1);
    byte[] forLyon = sealedBy(rome, LYON);
    assertThat(DatagramAuth.of(MASTER).open(forLyon, 0, forLyon.length)).isEqualTo(4);
    byte[] forBroker = sealedBy(rome, BROKER);
    assertThat(DatagramAuth.of(MASTER).open(forBroker, 0, forBroker.length)).isEqualTo(4);
  }

  @Test
  void anEdgeHoldingItsOwnKeyOnlyOpensItsKeyAndItsPairsAndNothingElse() throws Exception {
    OwnKeyOnly keys = new OwnKeyOnly(Map.of("paris", pair("rome", "paris")));
    EdgeSeals rome = new EdgeSeals(own("rome"), "rome", keys);
    rome.observe(view(true));
    assertThat(rome.ownKeyOnly()).isTrue();
    // re-sealed for it by a routing broker, or sealed for it by an edge with the deployment's
    assertThat(open(rome, message("lyon", own("rome")), BROKER)).isPositive();
    assertThat(open(rome, message("lyon", DatagramAuth.of(MASTER)), BROKER)).isEqualTo(-1);
    assertThat(open(rome, message("lyon", own("lyon")), LYON)).isEqualTo(-1);
    // paris's direct datagrams under the key they share: its own messages and NACKs only
    assertThat(open(rome, message("paris", pair("paris", "rome")), PARIS)).isPositive();
    assertThat(open(rome, nack(pair("paris", "rome")), PARIS)).isEqualTo(4);
    assertThat(open(rome, message("lyon", pair("paris", "rome")), PARIS)).isEqualTo(-1);
    assertThat(open(rome, message("paris", pair("paris", "rome")), OSLO)).isEqualTo(-1);
    assertThat(open(rome, message("paris", own("paris")), PARIS)).isEqualTo(-1);
    // oslo shares no key with rome: its direct datagrams are refused
    assertThat(open(rome, message("oslo", own("oslo")), OSLO)).isEqualTo(-1);
  }

  @Test
  void anEdgeHoldingItsOwnKeyOnlySealsUnderItsPairKeyOrElseItsOwn() throws Exception {
    OwnKeyOnly keys = new OwnKeyOnly(Map.of("paris", pair("rome", "paris")));
    EdgeSeals rome = new EdgeSeals(own("rome"), "rome", keys);
    rome.observe(view(true));
    byte[] forParis = sealedBy(rome, PARIS);
    assertThat(pair("paris", "rome").open(forParis, 0, forParis.length)).isEqualTo(4);
    byte[] forLyon = sealedBy(rome, LYON); // lyon derives rome's key
    assertThat(own("rome").open(forLyon, 0, forLyon.length)).isEqualTo(4);
    EdgeSeals lyon = new EdgeSeals(DatagramAuth.of(MASTER), "lyon", null);
    lyon.observe(view(true));
    assertThat(open(lyon, forLyon, ROME)).isEqualTo(4);
    byte[] forBroker = sealedBy(rome, BROKER);
    assertThat(own("rome").open(forBroker, 0, forBroker.length)).isEqualTo(4);
  }

  @Test
  void edgeAddressesAreBoundedAndFollowTheLastView() throws Exception {
    EdgeSeals rome = new EdgeSeals(DatagramAuth.of(MASTER), "rome", null);
    rome.observe(view(false));
    assertThat(open(rome, nack(own("paris")), PARIS)).isEqualTo(4);
    rome.observe(OverlayView.EMPTY); // paris left: its address opens nothing any more
    assertThat(open(rome, nack(own("paris")), PARIS)).isEqualTo(-1);
    // a topic as loaded, before the view shows it: its own-key edges are sealed for at once
    rome.learn(view(false).topics().get("t/1"));
    byte[] forParis = sealedBy(rome, PARIS);
    assertThat(own("paris").open(forParis, 0, forParis.length)).isEqualTo(4);
    Map<String, Endpoint> many = new TreeMap<>();
    for (int i = 0; i < EdgeSeals.MAX_PEERS + 10; i++) {
      many.put("e" + i, new Endpoint("s", addr(10_000 + i), Optional.empty(), true));
    }
    TopicState t = new TopicState(Optional.empty(), 0, many, Map.of());
    rome.observe(new OverlayView(new TreeMap<>(Map.of("t", t)), new TreeMap<>(), 0));
    assertThat(rome.peerCount()).isEqualTo(EdgeSeals.MAX_PEERS);
  }

  @Test
  void anEntrySaysOwnKeyOnlyWhenItIsAndADefaultEntryIsAsItWas() {
    Endpoint own = new Endpoint("r", ROME, Optional.of(50L), true);
    String json = new String(ZnodeData.endpoint(own), StandardCharsets.UTF_8);
    assertThat(json).contains("\"own_key\":true");
    assertThat(ZnodeData.endpoint(ZnodeData.endpoint(own))).isEqualTo(own);
    assertThat(own.withDeadline(Optional.empty()).ownKey()).isTrue();
    assertThat(new String(ZnodeData.endpoint(new Endpoint("r", ROME)), StandardCharsets.UTF_8))
        .isEqualTo("{\"site\":\"r\",\"address\":\"127.0.0.1:9004\"}");
    String bad = "{\"site\":\"r\",\"address\":\"127.0.0.1:9004\",\"own_key\":\"yes\"}";
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> ZnodeData.endpoint(bad.getBytes(StandardCharsets.UTF_8)))
        .hasMessageContaining("own_key");
  }

  @Test
  void aPairKeyFileIsParsedAndBadLinesAreNamed() {
    String hex = HexFormat.of().formatHex(EdgeKeys.pair(MASTER.get(0), "rome", "paris"));
    OwnKeyOnly k = OwnKeyOnly.parse("# pair keys\nparis " + hex + "\n\n");
    assertThat(k.pairs()).containsOnlyKeys("paris");
    assertThat(EdgeKeys.pair(MASTER.get(0), "paris", "rome"))
        .isEqualTo(EdgeKeys.pair(MASTER.get(0), "rome", "paris"));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> OwnKeyOnly.parse("paris\n"))
        .hasMessageContaining("line 1");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> OwnKeyOnly.parse("paris " + hex + "\nlyon zz" + hex.substring(2) + "\n"))
        .hasMessageContaining("line 2")
        .hasMessageNotContaining(hex.substring(2));
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> OwnKeyOnly.parse("paris " + hex + "\nparis " + hex + "\n"))
        .hasMessageContaining("line 2");
  }

  private static byte[] sealedBy(EdgeSeals s, InetSocketAddress to) {
    byte[] d = Arrays.copyOf("data".getBytes(StandardCharsets.UTF_8), 4 + DatagramAuth.TAG);
    assertThat(s.seal(d, 0, 4, to)).isEqualTo(d.length);
    return d;
  }
}
