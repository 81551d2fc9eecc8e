package org.netpubsub.network.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.TopologyChange.LinkAdded;
import org.netpubsub.network.topology.TopologyChange.LinkRemoved;

/** The link-discovery state machine: probe timing, learning, refresh, expiry, port loss. */
class LinkDiscoveryTest {
  private static final long NONCE = 42;
  private static final LinkDiscovery.Config CONFIG =
      new LinkDiscovery.Config(1000, 3, NONCE, MacAddress.parse("02:00:00:00:00:99"));
  private static final Map<Long, Set<Long>> SWITCHES = Map.of(1L, Set.of(1L, 2L), 2L, Set.of(1L));

  private final LinkDiscovery d = new LinkDiscovery(CONFIG);

  private static byte[] lldp(long dpid, long port, long nonce) {
    return new LldpFrame(CONFIG.source(), dpid, port, 3, OptionalLong.of(nonce)).encode();
  }

  @Test
  void probesEveryPortOncePerIntervalAndNewPortsAtOnce() {
    List<LinkDiscovery.Probe> first = d.probes(0, SWITCHES);
    assertThat(first)
        .extracting(p -> p.dpid() + ":" + p.port())
        .containsExactlyInAnyOrder("1:1", "1:2", "2:1");
    LinkDiscovery.Probe p = first.get(0);
    LldpFrame f = LldpFrame.decode(p.bytes()).toOptional().orElseThrow();
    assertThat(f.dpid()).isEqualTo(p.dpid());
    assertThat(f.port()).isEqualTo(p.port());
    assertThat(f.nonce()).hasValue(NONCE);
    assertThat(f.ttlSeconds()).isEqualTo(3);
    assertThat(d.probes(999, SWITCHES)).isEmpty();
    assertThat(d.probes(500, Map.of(1L, Set.of(1L, 2L, 3L), 2L, Set.of(1L))))
        .extracting(x -> x.dpid() + ":" + x.port())
        .containsExactly("1:3");
    assertThat(d.probes(1000, SWITCHES)).hasSize(3);
    d.onPortUp(2, 1);
    assertThat(d.probes(1001, SWITCHES)).extracting(x -> x.dpid()).containsExactly(2L);
    assertThat(d.probes(2000, Map.of(3L, Set.of(0xfffffffeL)))).as("LOCAL").isEmpty();
  }

  @Test
  void learnsOnceRefreshesThenExpiresAfterTheConfiguredIntervals() {
    Link l = Link.of(1, 2, 2, 1);
    assertThat(d.onLldp(0, 2, 1, lldp(1, 2, NONCE))).containsExactly(new LinkAdded(l));
    assertThat(d.onLldp(10, 1, 2, lldp(2, 1, NONCE))).isEmpty(); // the other direction
    assertThat(d.links()).containsExactly(l);
    assertThat(d.expire(3009)).isEmpty();
    assertThat(d.expire(3010)).containsExactly(new LinkRemoved(l));
    assertThat(d.links()).isEmpty();
  }

  @Test
  void foreignAndMalformedFramesChangeNothing() {
    assertThat(d.onLldp(0, 2, 1, lldp(1, 2, NONCE + 1))).isEmpty();
    assertThat(
            d.onLldp(
                0, 2, 1, new LldpFrame(CONFIG.source(), 1, 2, 3, OptionalLong.empty()).encode()))
        .isEmpty();
    assertThat(d.onLldp(0, 2, 1, new byte[] {1, 2, 3})).isEmpty();
    assertThat(d.onLldp(0, 1, 2, lldp(1, 2, NONCE))).isEmpty(); // its own port: a loopback
    assertThat(d.foreignFrames()).isEqualTo(2);
    assertThat(d.malformedFrames()).isEqualTo(1);
    assertThat(d.links()).isEmpty();
  }

  @Test
  void recablingReplacesTheLinkAtEitherEnd() {
    d.onLldp(0, 2, 1, lldp(1, 2, NONCE));
    assertThat(d.onLldp(5, 3, 4, lldp(1, 2, NONCE)))
        .containsExactly(new LinkRemoved(Link.of(1, 2, 2, 1)), new LinkAdded(Link.of(1, 2, 3, 4)));
  }

  @Test
  void portDownAndSwitchLossRemoveLinksAtOnce() {
    d.onLldp(0, 2, 1, lldp(1, 2, NONCE));
    d.onLldp(0, 3, 1, lldp(1, 1, NONCE));
    assertThat(d.onPortDown(2, 1)).containsExactly(new LinkRemoved(Link.of(1, 2, 2, 1)));
    assertThat(d.onPortDown(2, 1)).isEmpty();
    assertThat(d.onPortDown(2, 0xfffffffeL)).as("LOCAL").isEmpty();
    assertThat(d.onSwitchRemoved(3)).containsExactly(new LinkRemoved(Link.of(1, 1, 3, 1)));
    assertThat(d.links()).isEmpty();
  }
}
