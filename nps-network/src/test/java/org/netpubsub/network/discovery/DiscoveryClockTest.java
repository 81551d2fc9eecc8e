package org.netpubsub.network.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.TopologyChange.LinkAdded;

class DiscoveryClockTest {
  @Test
  void followsTheWallClockInShortStepsAndCountsAStallAsOneStep() {
    DiscoveryClock c = new DiscoveryClock(10_000, 400);
    assertThat(c.read(10_200)).isEqualTo(10_200);
    assertThat(c.read(10_600)).isEqualTo(10_600);
    // the loop stalled 13 s: discovery sees 400 ms
    assertThat(c.read(23_600)).isEqualTo(11_000);
    assertThat(c.read(23_800)).isEqualTo(11_200);
  }

  @Test
  void neverGoesBackwards() {
    DiscoveryClock c = new DiscoveryClock(5_000, 400);
    assertThat(c.read(5_300)).isEqualTo(5_300);
    assertThat(c.read(4_000)).isEqualTo(5_300);
    assertThat(c.read(5_400)).isEqualTo(5_400);
    assertThatThrownBy(() -> new DiscoveryClock(0, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aStalledLoopDoesNotExpireALinkWhoseLldpIsQueuedButALostLinkStillExpires() {
    LinkDiscovery.Config config =
        new LinkDiscovery.Config(1000, 3, 42, MacAddress.parse("02:00:00:00:00:99"));
    LinkDiscovery d = new LinkDiscovery(config);
    byte[] lldp = new LldpFrame(config.source(), 1, 2, 3, OptionalLong.of(42)).encode();
    DiscoveryClock c = new DiscoveryClock(0, 400);
    Link l = Link.of(1, 2, 2, 1);
    assertThat(d.onLldp(c.read(1_000), 2, 1, lldp)).containsExactly(new LinkAdded(l));
    // The loop stalls 13 s; its first tick sees 400 ms pass (wall time would expire the link).
    assertThat(d.expire(c.read(14_000))).isEmpty();
    assertThat(d.onLldp(c.read(14_010), 2, 1, lldp)).isEmpty(); // the queued LLDP: refreshed
    // Afterwards the link is really lost: it expires after 3 s of ticks, as before.
    long t = 14_010;
    while (d.links().contains(l)) {
      t += 200;
      d.expire(c.read(t));
    }
    assertThat(t - 14_010).isBetween(3_000L, 3_200L);
  }
}
