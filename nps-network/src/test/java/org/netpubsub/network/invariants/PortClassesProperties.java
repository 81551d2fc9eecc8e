package org.netpubsub.network.invariants;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.camus.openflow.QueryAddressLayout;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.Egress;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.openflow.Pipeline;
import org.netpubsub.network.openflow.PipelinePolicy;

/**
 * The shared run of {@link PortClasses} (one run per group of in-ports, entering by the phantom
 * port, its lookups made for the group's port) against its naive twin, a run per real in-port: on
 * Camus switches with extra table-0 entries that match an in_port (at the pipeline's own priority,
 * so their order against its entry is their age's, or above it; writing another state, sending the
 * copy back by {@code IN_PORT}, or out of a random port), inserted before or after the pipeline's
 * flows, the same entry for several ports at different places, and groups sending copies back —
 * every address of the universe, every port: the same copies to the same ports with the same
 * headers.
 */
class PortClassesProperties {
  private static final Pipeline PIPELINE = new Pipeline(PipelinePolicy.INVARIANT_CHECKER);

  @Property(tries = 40)
  void aSharedRunSendsWhatARunPerPortSends(
      @ForAll long seed, @ForAll @IntRange(min = 0, max = 2) int shape, @ForAll boolean mr) {
    CamusBed bed = new CamusBed(shape, seed, mr, 4);
    Random r = new Random(seed);
    List<Ipv6Address> universe = bed.camus.universe();
    int shared = 0;
    for (long dpid : bed.topology.switches()) {
      Set<Long> ports = bed.topology.ports(dpid);
      List<Long> portList = new ArrayList<>(ports);
      List<FlowEntry> flows = new ArrayList<>(bed.flows.get(dpid));
      int extra = r.nextInt(4);
      for (int i = 0; i < extra; i++) {
        // the same entry for one to three ports, each at its own place: equal once in_port is
        // left out, their order against the pipeline's entry of the same priority differs
        FlowEntry e = extraEntry(r, portList);
        for (int n = 1 + r.nextInt(3); n > 0; n--) {
          long in = portList.get(r.nextInt(portList.size()));
          FlowEntry forPort = e.toBuilder().match(e.match().toBuilder().inPort(in).build()).build();
          // first (older than the pipeline's table-0 entry), last, or anywhere
          int at =
              switch (r.nextInt(3)) {
                case 0 -> 0;
                case 1 -> flows.size();
                default -> r.nextInt(flows.size() + 1);
              };
          flows.add(at, forPort);
        }
      }
      SwitchTables t = new SwitchTables();
      for (GroupEntry g : bed.groups.get(dpid)) {
        if (r.nextInt(4) == 0) {
          List<Bucket> b = new ArrayList<>(g.buckets());
          b.add(Bucket.of(Action.output(OfPort.IN_PORT)));
          g = new GroupEntry(g.groupId(), g.type(), b);
        }
        t.putGroup(g);
      }
      flows.forEach(t::add);
      PortClasses classes = new PortClasses(t, ports);
      for (long port : ports) {
        long lookup = classes.lookupPort(port);
        shared += lookup != port ? 1 : 0;
        for (Ipv6Address a : universe) {
          PacketHeaders h = PacketHeaders.udp6(Ipv6Address.ZERO, a, 7073, 7073);
          Pipeline.Outcome naive = PIPELINE.run(new CheckedDatapath(t, ports), port, h);
          Pipeline.Outcome once =
              PIPELINE.run(
                  new CheckedDatapath(t, ports, null, null, lookup, null), PortClasses.PHANTOM, h);
          assertThat(sorted(mapped(once, port)))
              .as("switch %d, port %d (runs for %d), %s", dpid, port, lookup, a)
              .isEqualTo(sorted(naive.egresses()));
          assertThat(once.missedTable0()).isEqualTo(naive.missedTable0());
        }
      }
    }
    Statistics.label("ports sharing another's run").collect(shared > 0);
  }

  /** As {@link RegionWalk} maps a shared run's copies to a real in-port. */
  private static List<Egress> mapped(Pipeline.Outcome shared, long port) {
    List<Egress> out = new ArrayList<>();
    for (Egress e : shared.egresses()) {
      if (e.port() == PortClasses.PHANTOM) {
        out.add(new Egress(port, e.headers()));
      } else if (e.port() != port) {
        out.add(e);
      }
    }
    return out;
  }

  private static List<Egress> sorted(List<Egress> l) {
    return l.stream().sorted(Comparator.naturalOrder()).toList();
  }

  private static FlowEntry extraEntry(Random r, List<Long> ports) {
    FlowEntry.Builder b =
        FlowEntry.builder()
            .table(0)
            .priority(SwitchLayout.CAMUS_ENTRY_PRIORITY + r.nextInt(3))
            .match(
                Match.builder()
                    .ethType(PacketHeaders.ETH_TYPE_IPV6)
                    .ipv6Dst(QueryAddressLayout.prefix())
                    .ipProto(PacketHeaders.IP_PROTO_UDP)
                    .udpDst(7073)
                    .build());
    return switch (r.nextInt(3)) {
      case 0 -> b.writeMetadata(r.nextInt(4), 0xffffffffL).gotoTable(1).build();
      case 1 -> b.apply(Action.output(OfPort.IN_PORT)).build();
      default -> b.apply(Action.output(ports.get(r.nextInt(ports.size())))).build();
    };
  }
}
