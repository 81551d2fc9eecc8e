package org.netpubsub.network.nbi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

/**
 * The record against a list model of Algorithm 2's FLAG table that keeps every entry in recording
 * order and forgets from the front: same verdicts, same memory, never more than the capacity.
 */
class MultiAppRecordProperties {
  static final Topology LINE = TestTopologies.linear(3);

  sealed interface Op {}

  record Record(long dpid, long xid, boolean multi) implements Op {}

  record Out(PacketOutRequest out, boolean alive) implements Op {}

  /** One FLAG entry of the model. */
  static final class Flag {
    final long dpid;
    final long xid;
    final Set<Long> dealt = new HashSet<>();

    Flag(long dpid, long xid) {
      this.dpid = dpid;
      this.xid = xid;
    }
  }

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Long> dpids = Arbitraries.of(1L, 2L, 3L);
    Arbitrary<Long> xids = Arbitraries.longs().between(0, 5);
    Arbitrary<Op> record =
        Combinators.combine(dpids, xids, Arbitraries.of(true, false)).as(Record::new);
    Arbitrary<Op> out =
        Combinators.combine(
                dpids,
                xids,
                dpids,
                Arbitraries.longs().between(1, 3),
                Arbitraries.frequency(Tuple.of(5, true), Tuple.of(1, false)))
            .as(
                (inDpid, xid, dpid, port, alive) ->
                    new Out(new PacketOutRequest(inDpid, xid, dpid, port), alive));
    return Arbitraries.frequencyOf(Tuple.of(1, record), Tuple.of(2, out)).list().ofMaxSize(50);
  }

  @Property(tries = 500)
  void behavesAsTheListModel(
      @ForAll("ops") List<Op> ops, @ForAll @IntRange(min = 1, max = 4) int capacity) {
    MultiAppRecord r = new MultiAppRecord(capacity);
    List<Flag> model = new ArrayList<>();
    for (Op op : ops) {
      switch (op) {
        case Record rec -> {
          r.record(rec.dpid(), rec.xid(), rec.multi());
          model.removeIf(f -> f.dpid == rec.dpid() && f.xid == rec.xid());
          if (rec.multi()) {
            model.add(new Flag(rec.dpid(), rec.xid()));
            if (model.size() > capacity) {
              model.remove(0);
            }
          }
        }
        case Out o -> {
          PacketOutVerdict v = r.decide(o.out(), LINE, p -> o.alive());
          assertThat(v).isEqualTo(model(model, o.out(), o.alive()));
        }
      }
      assertThat(r.size()).isEqualTo(model.size()).isLessThanOrEqualTo(capacity);
      for (Flag f : model) {
        assertThat(r.dealt(f.dpid, f.xid)).isEqualTo(f.dealt);
      }
    }
  }

  private static PacketOutVerdict model(List<Flag> model, PacketOutRequest out, boolean alive) {
    Flag flag = null;
    for (Flag f : model) {
      if (f.dpid == out.packetInDpid() && f.xid == out.packetInXid()) {
        flag = f;
      }
    }
    if (flag == null) {
      return PacketOutVerdict.PASS;
    }
    SwitchPort sp = SwitchPort.of(out.dpid(), out.outPort());
    Long next = LINE.linkAt(sp).map(l -> l.peer(sp).dpid()).orElse(null);
    if (flag.dealt.contains(out.dpid()) || (next != null && flag.dealt.contains(next))) {
      return PacketOutVerdict.DROP_DUPLICATE;
    }
    if (!alive) {
      return PacketOutVerdict.DEAD_PORT;
    }
    flag.dealt.add(out.dpid());
    return PacketOutVerdict.PASS;
  }
}
