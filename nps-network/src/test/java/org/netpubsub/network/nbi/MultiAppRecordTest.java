package org.netpubsub.network.nbi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.netpubsub.network.nbi.PacketOutVerdict.DEAD_PORT;
import static org.netpubsub.network.nbi.PacketOutVerdict.DROP_DUPLICATE;
import static org.netpubsub.network.nbi.PacketOutVerdict.PASS;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

/** Algorithm 2, lines 4–17: duplicate and dead-port packet-outs of multi-app packet-ins. */
class MultiAppRecordTest {
  /** 1 -(port 1)(port 1)- 2 -(port 2)(port 1)- 3, one host on each (ports 2, 3, 2). */
  static final Topology LINE = TestTopologies.linear(3);

  static final Predicate<SwitchPort> ALL_ALIVE = p -> true;

  static PacketOutRequest out(long xid, long dpid, long port) {
    return new PacketOutRequest(1, xid, dpid, port);
  }

  @Test
  void packetOutsForSingleAppOrUnknownPacketInsAlwaysPass() {
    MultiAppRecord r = new MultiAppRecord();
    r.record(1, 7, Classification.topic(List.of("a"), List.of(NbiTopic.ANY)));
    r.record(1, 8, Classification.reply());
    for (int i = 0; i < 3; i++) {
      assertThat(r.decide(out(7, 1, 2), LINE, ALL_ALIVE)).isEqualTo(PASS);
      assertThat(r.decide(out(8, 1, 2), LINE, ALL_ALIVE)).isEqualTo(PASS);
      assertThat(r.decide(out(9, 1, 2), LINE, p -> false)).isEqualTo(PASS);
    }
    assertThat(r.size()).isZero();
  }

  @Test
  void theSecondAppsPacketOutFromOrTowardsADealtSwitchIsDropped() {
    MultiAppRecord r = new MultiAppRecord();
    r.record(1, 7, Classification.topic(List.of("a", "b", "c"), List.of(NbiTopic.ANY)));
    assertThat(r.isMultiApp(1, 7)).isTrue();
    assertThat(r.decide(out(7, 2, 3), LINE, ALL_ALIVE)).isEqualTo(PASS); // a sends it from 2
    assertThat(r.dealt(1, 7)).containsExactly(2L);
    assertThat(r.decide(out(7, 2, 2), LINE, ALL_ALIVE)).isEqualTo(DROP_DUPLICATE); // b, from 2
    // c sends it from 1 out of port 1, which leads to 2: output.dpid was dealt
    assertThat(r.decide(out(7, 1, 1), LINE, ALL_ALIVE)).isEqualTo(DROP_DUPLICATE);
    // from 3 towards its host: not dealt yet
    assertThat(r.decide(out(7, 3, 2), LINE, ALL_ALIVE)).isEqualTo(PASS);
    assertThat(r.dealt(1, 7)).containsExactlyInAnyOrder(2L, 3L);
  }

  @Test
  void xidsArePerSwitch() {
    MultiAppRecord r = new MultiAppRecord();
    r.record(1, 7, true);
    r.record(2, 7, true);
    assertThat(r.decide(new PacketOutRequest(1, 7, 3, 2), LINE, ALL_ALIVE)).isEqualTo(PASS);
    assertThat(r.decide(new PacketOutRequest(2, 7, 3, 2), LINE, ALL_ALIVE)).isEqualTo(PASS);
    assertThat(r.decide(new PacketOutRequest(2, 7, 3, 2), LINE, ALL_ALIVE))
        .isEqualTo(DROP_DUPLICATE);
  }

  @Test
  void aDeadOutputIsReportedAndNotCountedAsDealt() {
    MultiAppRecord r = new MultiAppRecord();
    r.record(1, 7, true);
    List<SwitchPort> asked = new ArrayList<>();
    assertThat(r.decide(out(7, 2, 3), LINE, p -> asked.add(p) && false)).isEqualTo(DEAD_PORT);
    assertThat(asked).containsExactly(SwitchPort.of(2, 3));
    assertThat(r.dealt(1, 7)).isEmpty();
    assertThat(r.decide(out(7, 2, 3), LINE, ALL_ALIVE)).isEqualTo(PASS);
    // reserved ports have no single peer: liveness is not asked
    r.record(1, 8, true);
    assertThat(r.decide(out(8, 1, OfPort.FLOOD), LINE, p -> false)).isEqualTo(PASS);
    assertThat(r.decide(out(8, 1, OfPort.FLOOD), LINE, p -> false)).isEqualTo(DROP_DUPLICATE);
  }

  @Test
  void remembersOnlyTheLastMultiAppPacketIns() {
    MultiAppRecord r = new MultiAppRecord(3);
    for (long xid = 1; xid <= 5; xid++) {
      r.record(1, xid, true);
      r.decide(out(xid, 2, 3), LINE, ALL_ALIVE);
    }
    assertThat(r.size()).isEqualTo(3);
    assertThat(r.isMultiApp(1, 2)).isFalse();
    assertThat(r.decide(out(2, 2, 3), LINE, ALL_ALIVE)).isEqualTo(PASS); // forgotten: passes
    assertThat(r.decide(out(3, 2, 3), LINE, ALL_ALIVE)).isEqualTo(DROP_DUPLICATE);
    // recording again starts afresh and counts as newest; single-app forgets
    r.record(1, 3, true);
    assertThat(r.dealt(1, 3)).isEmpty();
    r.record(1, 6, true);
    assertThat(r.isMultiApp(1, 3)).isTrue();
    assertThat(r.isMultiApp(1, 4)).isFalse();
    r.record(1, 3, false);
    assertThat(r.isMultiApp(1, 3)).isFalse();
    assertThat(r.size()).isEqualTo(2);
    assertThat(new MultiAppRecord().capacity()).isEqualTo(MultiAppRecord.DEFAULT_CAPACITY);
    assertThatThrownBy(() -> new MultiAppRecord(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aliveInATopologyMeansALinkOrAHost() {
    Predicate<SwitchPort> alive = MultiAppRecord.aliveIn(LINE);
    assertThat(alive.test(SwitchPort.of(1, 1))).isTrue(); // link to 2
    assertThat(alive.test(SwitchPort.of(1, 2))).isTrue(); // host
    assertThat(alive.test(SwitchPort.of(1, 9))).isFalse();
    Topology cut = LINE.removeLink(Link.of(1, 1, 2, 1));
    assertThat(MultiAppRecord.aliveIn(cut).test(SwitchPort.of(1, 1))).isFalse();
    MultiAppRecord r = new MultiAppRecord();
    r.record(1, 7, true);
    assertThat(r.decide(out(7, 1, 1), cut, MultiAppRecord.aliveIn(cut))).isEqualTo(DEAD_PORT);
  }
}
