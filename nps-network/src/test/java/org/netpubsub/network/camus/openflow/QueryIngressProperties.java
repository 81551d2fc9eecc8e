package org.netpubsub.network.camus.openflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.netpubsub.compiler.domain.ConstraintDomains;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.Filter;
import org.netpubsub.content.filter.FilterArbitraries;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.openflow.SimulatedSwitch;
import org.netpubsub.network.pleroma.ContentFlows;

/**
 * The Camus ingress rules against their naive twin, "the advertisement matches the event", executed
 * by the simulated switch beside a Camus entry that forwards everything: an event from the guarded
 * port is forwarded whenever the advertisement matches it (never a false drop), and only then when
 * the compiler's constraints are exact; from another port always.
 */
class QueryIngressProperties {
  private static final Ipv6Address SRC = Ipv6Address.parse("fd6e:7073:1::2");
  private static final QueryAddressLayout LAYOUT =
      QueryAddressLayout.of(MessageSpec.fromSchema(FilterArbitraries.MIXED));

  @Property(tries = 200)
  void anEventFromTheGuardedPortPassesIffItsAdvertisementMatchesIt(
      @ForAll("filters") Filter advertised) {
    Dnf dnf = Normalizer.toDnf(advertised);
    boolean exact =
        dnf.conjunctions().stream()
            .allMatch(c -> ConstraintDomains.of(LAYOUT.carried(), c).exact());
    SimulatedSwitch sw = SimulatedSwitch.builder().ports(1, 2, 3).build();
    assertThat(sw.apply(FlowMod.add(camusEntry()))).isEmpty();
    assertThat(sw.apply(FlowMod.add(everythingTo(3)))).isEmpty();
    List<FlowEntry> entries =
        QueryIngress.entries(
            LAYOUT, 2, List.of(dnf), SwitchLayout.CAMUS_FIRST_TABLE, ContentFlows.EVENT_PORT);
    for (FlowEntry f : entries) {
      assertThat(SwitchLayout.ownerOf(f)).contains(Owner.INGRESS);
      assertThat(sw.apply(FlowMod.add(f))).isEmpty();
    }
    for (Event e : FilterArbitraries.sampleMixedEvents()) {
      boolean matches = FilterEvaluator.matches(dnf, e);
      PacketHeaders h = PacketHeaders.udp6(SRC, LAYOUT.address(e), 40_000, ContentFlows.EVENT_PORT);
      List<Long> out = sw.process(2, h).ports();
      if (matches) {
        assertThat(out).as("%s matches %s", e, dnf).containsExactly(3L);
      } else if (exact) {
        assertThat(out).as("%s does not match %s", e, dnf).isEmpty();
      }
      assertThat(sw.process(1, h).ports()).containsExactly(3L);
      // another UDP port to an allowed address is no event: dropped at the guarded port
      PacketHeaders other = PacketHeaders.udp6(SRC, LAYOUT.address(e), 40_000, 9);
      assertThat(sw.process(2, other).ports()).isEmpty();
    }
  }

  @Provide
  Arbitrary<Filter> filters() {
    return FilterArbitraries.filters(FilterArbitraries.MIXED, 2);
  }

  /** Camus's table-0 entry as OpenFlowPipeline writes it: the query space to the field tables. */
  private static FlowEntry camusEntry() {
    return FlowEntry.builder()
        .table(SwitchLayout.TABLE_0)
        .priority(SwitchLayout.CAMUS_ENTRY_PRIORITY)
        .cookie(SwitchLayout.CAMUS_COOKIE)
        .match(
            Match.builder()
                .ethType(PacketHeaders.ETH_TYPE_IPV6)
                .ipv6Dst(QueryAddressLayout.prefix())
                .ipProto(PacketHeaders.IP_PROTO_UDP)
                .udpDst(ContentFlows.EVENT_PORT)
                .build())
        .gotoTable(SwitchLayout.CAMUS_FIRST_TABLE)
        .build();
  }

  /** The pipeline stood in for by one entry: every event on to {@code port}. */
  private static FlowEntry everythingTo(long port) {
    return FlowEntry.builder()
        .table(SwitchLayout.CAMUS_FIRST_TABLE)
        .priority(0)
        .cookie(SwitchLayout.CAMUS_COOKIE)
        .match(Match.ANY)
        .apply(Action.output(port))
        .build();
  }
}
