package org.netpubsub.network.nbi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.netpubsub.network.nbi.TestFrames.TCP;
import static org.netpubsub.network.nbi.TestFrames.UDP;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.discovery.NdCodec;
import org.netpubsub.network.discovery.NdMessage;
import org.netpubsub.network.topology.MacAddress;

/** Algorithm 1 on examples: topics, FOR_ALL, REPLY, multi-app, (un)registration, the baseline. */
class TopicClassifierTest {
  static final Ipv6Address H1 = Ipv6Address.parse("2001:db8::1");
  static final Ipv6Address H2 = Ipv6Address.parse("2001:db8::2");
  static final Ipv6Address GROUP = Ipv6Address.parse("ff0e::7073");
  static final MacAddress M1 = MacAddress.parse("02:00:00:00:00:01");

  static PacketInView packet(byte[] frame) {
    return new PacketInView(1, 1, 42, frame);
  }

  static PacketInView udp6(int dstPort) {
    return packet(
        TestFrames.ethernet(
            0x86dd,
            0,
            TestFrames.ipv6(H1, GROUP, UDP, TestFrames.udp(5000, dstPort, new byte[0]))));
  }

  static PacketInView tcp4(int dstPort) {
    return packet(
        TestFrames.ethernet(
            0x0800,
            0,
            TestFrames.ipv4(0x0a000001L, 0x0a000002L, TCP, 0, TestFrames.tcp(1, dstPort))));
  }

  static PacketInView lldp() {
    return packet(TestFrames.ethernet(0x88cc, 0, new byte[30]));
  }

  static PacketInView solicitation(Ipv6Address target) {
    return packet(NdCodec.encode(NdMessage.solicitation(M1, H1, target)));
  }

  @Test
  void sendsAPacketInOnlyToTheAppsWithAMatchingTopic() {
    TopicClassifier c = new TopicClassifier();
    c.subscribe("pubsub", NbiTopic.parse("eth_type=0x86dd,ip_proto=17,udp_dst=7073"));
    c.subscribe("web", NbiTopic.parse("tcp_dst=80"));
    c.subscribe("web", NbiTopic.parse("tcp_dst=443"));
    c.subscribe("monitor", NbiTopic.parse("ipv6_dst=ff0e::/16"));
    c.register("idle");

    Classification pub = c.classify(udp6(7073));
    assertThat(pub.kind()).isEqualTo(Classification.Kind.TOPIC);
    assertThat(pub.apps()).containsExactly("monitor", "pubsub");
    assertThat(pub.multiApp()).isTrue();

    Classification web = c.classify(tcp4(443));
    assertThat(web.apps()).containsExactly("web");
    assertThat(web.multiApp()).isFalse();

    Classification other = c.classify(udp6(53));
    assertThat(other.apps()).containsExactly("monitor");
    assertThat(c.classify(lldp()).apps()).isEmpty();
    assertThat(c.apps()).containsExactly("idle", "monitor", "pubsub", "web");
  }

  @Test
  void reportsTheTopicsThatMatchedNotOnlyTheApps() {
    TopicClassifier c = new TopicClassifier(ReplyRule.neighbourSolicitationFor(H2::equals));
    NbiTopic pubsub = NbiTopic.parse("eth_type=0x86dd,ip_proto=17,udp_dst=7073");
    NbiTopic multicast = NbiTopic.parse("ipv6_dst=ff0e::/16");
    NbiTopic udp = NbiTopic.parse("udp_dst=7073");
    c.subscribe("pubsub", pubsub);
    c.subscribe("pubsub", udp); // the same app twice: both topics still count
    c.subscribe("monitor", multicast);
    c.subscribe("nd", NbiTopic.parse("icmpv6_type=135"));
    assertThat(c.classify(udp6(7073)).topics()).containsExactlyInAnyOrder(pubsub, udp, multicast);
    assertThat(c.classify(udp6(53)).topics()).containsExactly(multicast);
    assertThat(c.classify(lldp()).topics()).isEmpty();
    assertThat(c.classify(solicitation(H2)).topics()).isEmpty(); // the core answers it
    NbiTopic lldp = NbiTopic.parse("eth_type=0x88cc");
    c.addForAll(NbiTopic.parse("eth_type=0x86dd"));
    c.addForAll(lldp);
    assertThat(c.classify(lldp()).topics()).containsExactly(lldp);
    assertThat(c.classify(lldp()).apps()).containsExactly("monitor", "nd", "pubsub");
    assertThat(c.classify(udp6(7073)).topics()).containsExactly(NbiTopic.parse("eth_type=0x86dd"));
    assertThat(c.broadcast(udp6(7073)).topics()).isEmpty();
  }

  @Test
  void forAllGoesToEveryAppEvenThoseWithoutTopics() {
    TopicClassifier c = new TopicClassifier();
    c.subscribe("a", NbiTopic.parse("udp_dst=7073"));
    c.register("b");
    assertThat(c.addForAll(NbiTopic.parse("eth_type=0x88cc"))).isTrue();
    Classification l = c.classify(lldp());
    assertThat(l.kind()).isEqualTo(Classification.Kind.FOR_ALL);
    assertThat(l.apps()).containsExactly("a", "b");
    assertThat(l.multiApp()).isTrue();
    assertThat(c.classify(udp6(7073)).kind()).isEqualTo(Classification.Kind.TOPIC);
    assertThat(c.removeForAll(NbiTopic.parse("eth_type=0x88cc"))).isTrue();
    assertThat(c.classify(lldp()).kind()).isEqualTo(Classification.Kind.TOPIC);
    assertThat(c.classify(lldp()).apps()).isEmpty();
  }

  @Test
  void theCoreAnswersSolicitationsForKnownHostsAndNoAppGetsThem() {
    TopicClassifier c = new TopicClassifier(ReplyRule.neighbourSolicitationFor(H2::equals));
    c.subscribe("nd", NbiTopic.parse("icmpv6_type=135"));
    Classification known = c.classify(solicitation(H2));
    assertThat(known.kind()).isEqualTo(Classification.Kind.REPLY);
    assertThat(known.apps()).isEmpty();
    assertThat(known.multiApp()).isFalse();
    // an unknown target, duplicate address detection, and a broken checksum go to the app
    assertThat(c.classify(solicitation(Ipv6Address.parse("2001:db8::99"))).apps())
        .containsExactly("nd");
    PacketInView dad = packet(NdCodec.encode(NdMessage.dad(M1, H2)));
    assertThat(c.classify(dad).apps()).containsExactly("nd");
    byte[] broken = NdCodec.encode(NdMessage.solicitation(M1, H1, H2));
    broken[broken.length - 1] ^= 1;
    assertThat(c.classify(packet(broken)).apps()).containsExactly("nd");
  }

  @Test
  void forAllComesBeforeReply() {
    TopicClassifier c = new TopicClassifier(p -> true);
    c.register("a");
    c.addForAll(NbiTopic.parse("eth_type=0x88cc"));
    assertThat(c.classify(lldp()).kind()).isEqualTo(Classification.Kind.FOR_ALL);
    assertThat(c.classify(udp6(1)).kind()).isEqualTo(Classification.Kind.REPLY);
  }

  @Test
  void subscriptionsChangeAtAnyTime() {
    TopicClassifier c = new TopicClassifier();
    NbiTopic t = NbiTopic.parse("udp_dst=7073");
    assertThat(c.subscribe("a", t)).isTrue();
    assertThat(c.subscribe("a", t)).isFalse();
    assertThat(c.subscribe("b", t)).isTrue();
    assertThat(c.distinctTopics()).isEqualTo(1);
    assertThat(c.classify(udp6(7073)).apps()).containsExactly("a", "b");
    assertThat(c.unsubscribe("a", t)).isTrue();
    assertThat(c.unsubscribe("a", t)).isFalse();
    assertThat(c.classify(udp6(7073)).apps()).containsExactly("b");
    assertThat(c.apps()).contains("a"); // still registered
    assertThat(c.unregister("b")).isTrue();
    assertThat(c.unregister("b")).isFalse();
    assertThat(c.classify(udp6(7073)).apps()).isEmpty();
    assertThat(c.distinctTopics()).isZero();
    c.subscribe("a", NbiTopic.ANY);
    assertThat(c.classify(lldp()).apps()).containsExactly("a");
    assertThat(c.topics("a")).containsExactly(NbiTopic.ANY);
    assertThat(c.topics("nobody")).isEmpty();
  }

  @Test
  void broadcastIsTheBaselineEveryAppGetsEverything() {
    TopicClassifier c = new TopicClassifier(p -> true);
    c.subscribe("a", NbiTopic.parse("udp_dst=7073"));
    c.register("b");
    Classification b = c.broadcast(lldp());
    assertThat(b.kind()).isEqualTo(Classification.Kind.FOR_ALL);
    assertThat(b.apps()).containsExactly("a", "b");
  }

  @Test
  void malformedPacketsNeverThrowAndMatchOnlyWhatTheyHave() {
    TopicClassifier c = new TopicClassifier(ReplyRule.neighbourSolicitationFor(h -> true));
    c.subscribe("udp", NbiTopic.parse("udp_dst=7073"));
    c.subscribe("eth", NbiTopic.parse("eth_type=0x86dd"));
    c.subscribe("raw", NbiTopic.parse("bytes@0/1=02"));
    byte[] full = udp6(7073).data();
    for (int n = 0; n <= full.length; n++) {
      Classification r = c.classify(packet(TestFrames.truncate(full, n)));
      Set<String> expected =
          n >= 58
              ? Set.of("udp", "eth", "raw")
              : n >= 14 ? Set.of("eth", "raw") : n >= 1 ? Set.of("raw") : Set.of();
      assertThat(r.apps())
          .as("truncated to %d bytes", n)
          .containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  @Test
  void indexesEachTopicByItsLeastCrowdedConstraint() {
    TopicIndex index = new TopicIndex();
    for (int i = 0; i < 200; i++) {
      index.add("app" + i, NbiTopic.parse("dpid=0x1,ip_proto=" + i));
    }
    // dpid=1 is the most selective field, but once one topic sits there the others spread out
    assertThat(index.largestBucket()).isEqualTo(1);
    assertThat(index.dimensions()).isEqualTo(2);
    for (int i = 0; i < 200; i++) {
      index.add("web" + i, NbiTopic.parse("eth_type=0x0800,tcp_dst=" + (1000 + i)));
    }
    assertThat(index.largestBucket()).isEqualTo(1);
    assertThat(index.dimensions()).isEqualTo(3); // + tcp_dst, never eth_type
  }

  @Test
  void rejectsMissingArguments() {
    assertThatThrownBy(() -> new TopicClassifier(null))
        .isInstanceOf(IllegalArgumentException.class);
    TopicClassifier c = new TopicClassifier();
    assertThatThrownBy(() -> c.subscribe(" ", NbiTopic.ANY))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> c.subscribe("a", null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new PacketInView(1, -1, 1, new byte[0]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new PacketInView(1, 1, 1L << 32, new byte[0]))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
