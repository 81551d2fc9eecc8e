package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.zookeeper.common.PathUtils;
import org.netpubsub.edge.mqtt.TopicFilters;

/** Topic names to znode names and back; the tree's JSON; the view of a tree with bad nodes. */
class ZnodePathsProperties {
  @Provide
  Arbitrary<String> topics() {
    return Arbitraries.oneOf(
        Arbitraries.strings().withChars("ab/.%- ").ofMinLength(1).ofMaxLength(12),
        Arbitraries.strings().all().ofMinLength(1).ofMaxLength(12));
  }

  @Property(tries = 2000)
  void encodingIsAValidZnodeNameAndInvertible(@ForAll("topics") String topic) {
    Assume.that(TopicFilters.isTopic(topic));
    Assume.that(topic.codePoints().noneMatch(c -> c >= 0xD800 && c <= 0xDFFF)); // lone surrogates
    String name = ZnodePaths.encodeTopic(topic);
    PathUtils.validatePath("/topics/" + name); // ZooKeeper's own check: throws if invalid
    assertThat(name).doesNotContain("/").isNotIn(".", "..");
    assertThat(ZnodePaths.decodeTopic(name)).isEqualTo(topic);
  }

  @Property(tries = 2000)
  void decodingRefusesWhatIsNotAnEncoding(@ForAll("topics") String name) {
    try {
      String topic = ZnodePaths.decodeTopic(name);
      assertThat(ZnodePaths.encodeTopic(topic)).isEqualTo(name);
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).contains("znode name");
    }
  }

  @Example
  void examples() {
    assertThat(ZnodePaths.encodeTopic("a/b")).isEqualTo("a%2Fb");
    assertThat(ZnodePaths.encodeTopic("..")).isEqualTo("%2E%2E");
    assertThat(ZnodePaths.encodeTopic("caf\u00e9 1")).isEqualTo("caf%C3%A9%201");
    assertThat(ZnodePaths.endpoint("s/1", ZnodePaths.Role.SUBSCRIBER, "paris"))
        .isEqualTo("/topics/s%2F1/sub/paris");
    assertThatThrownBy(() -> ZnodePaths.encodeTopic("a/+")).hasMessageContaining("topic");
    assertThatThrownBy(() -> ZnodePaths.decodeTopic("a%2")).hasMessageContaining("truncated");
    assertThatThrownBy(() -> ZnodePaths.decodeTopic("a%2fb"))
        .hasMessageContaining("not an encoded");
    assertThatThrownBy(() -> ZnodePaths.encodeTopic("a\ud800")).hasMessageContaining("surrogate");
    assertThatThrownBy(() -> ZnodePaths.broker("a b")).hasMessageContaining("broker name");
  }

  @Example
  void addressesAreWrittenInRfc5952FormAndTheJdksLongerFormIsStillRead() {
    InetSocketAddress v6 = new InetSocketAddress("2001:db8:0:0:0:0:0:1", 9000);
    assertThat(ZnodeData.address(v6)).isEqualTo("[2001:db8::1]:9000");
    assertThat(new String(ZnodeData.broker(new BrokerInfo(v6, 1)), StandardCharsets.UTF_8))
        .isEqualTo("{\"address\":\"[2001:db8::1]:9000\",\"rate\":1.0}");
    // what older edges wrote (the JDK's getHostAddress) reads as the same address
    assertThat(ZnodeData.address("[2001:db8:0:0:0:0:0:1]:9000")).isEqualTo(v6);
    assertThat(ZnodeData.address(ZnodeData.address(v6))).isEqualTo(v6);
    assertThat(ZnodeData.address(new InetSocketAddress("10.0.0.1", 7))).isEqualTo("10.0.0.1:7");
  }

  @Example
  void viewCountsAndSkipsMalformedNodes() {
    InetSocketAddress a = new InetSocketAddress("127.0.0.1", 7000);
    Map<String, byte[]> nodes = new LinkedHashMap<>();
    nodes.put("/topics", null);
    nodes.put("/topics/a%2Fb", ZnodeData.assignment(new Assignment("rb1", a)));
    nodes.put("/topics/a%2Fb/pub", null);
    nodes.put("/topics/a%2Fb/pub/paris", ZnodeData.endpoint(new Endpoint("paris", a)));
    nodes.put("/topics/a%2Fb/sub/rome", ZnodeData.endpoint(new Endpoint("rome", a)));
    nodes.put("/topics/a%2Fb/sub/oslo", "{\"site\":\"oslo\"}".getBytes(StandardCharsets.UTF_8));
    nodes.put("/topics/bad%zz", null);
    nodes.put("/brokers/rb1", ZnodeData.broker(new BrokerInfo(a, 2.5)));
    nodes.put("/brokers/rb2", "{\"address\":\"host.example:1\",\"rate\":0}".getBytes());
    OverlayView v = OverlayView.of(nodes);
    assertThat(v.malformed()).isEqualTo(3);
    assertThat(v.brokers()).containsOnlyKeys("rb1");
    TopicState t = v.topic("a/b").orElseThrow();
    assertThat(t.assignment()).contains(new Assignment("rb1", a));
    assertThat(t.publishers()).containsOnlyKeys("paris");
    assertThat(t.subscribers()).containsOnlyKeys("rome");
    assertThat(Relay.isGlobal(t, "paris")).isTrue();
    assertThat(Relay.isGlobal(t, "rome")).isFalse();
    assertThat(Relay.targets(t, "paris")).containsExactly(new Endpoint("rome", a));
    assertThat(Relay.targets(t, "rome")).isEmpty();
  }

  @Example
  void entriesCachedWithoutDataAreTheDirectorysEndpoints() {
    InetSocketAddress rome = new InetSocketAddress("10.0.0.2", 9000);
    InetSocketAddress paris = new InetSocketAddress("10.0.0.1", 9000);
    Map<String, byte[]> nodes = new HashMap<>();
    nodes.put("/topics/t", null);
    nodes.put("/topics/t/sub", null); // a container cached without a read
    nodes.put("/topics/t/sub/rome", null); // its edge is in the directory
    nodes.put("/topics/t/sub/oslo", null); // not (yet): left out, not malformed
    nodes.put("/topics/t/pub/paris", ZnodeData.endpoint(new Endpoint("paris", paris))); // read
    Map<String, Endpoint> directory = Map.of("rome", new Endpoint("rome", rome));
    OverlayView v = OverlayView.of(nodes, p -> 0, directory::get);
    TopicState t = v.topic("t").orElseThrow();
    assertThat(t.subscribers()).isEqualTo(Map.of("rome", new Endpoint("rome", rome)));
    assertThat(t.publishers()).isEqualTo(Map.of("paris", new Endpoint("paris", paris)));
    assertThat(t.subscriberNode()).isTrue();
    assertThat(v.malformed()).isZero();
  }

  @Example
  void addressesAreIpLiterals() {
    assertThat(ZnodeData.address(ZnodeData.address("[::1]:80"))).isEqualTo("[::1]:80");
    assertThat(ZnodeData.address("10.0.0.1:7").getPort()).isEqualTo(7);
    assertThatThrownBy(() -> ZnodeData.address("localhost:80")).hasMessageContaining("IP address");
    assertThatThrownBy(() -> ZnodeData.address("::1:80")).hasMessageContaining("brackets");
    assertThatThrownBy(() -> ZnodeData.address("1.2.3.4:70000")).hasMessageContaining("range");
  }
}
