package org.netpubsub.network.nbi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.netpubsub.network.nbi.InvariantVerdict.Outcome.ACCEPT;
import static org.netpubsub.network.nbi.InvariantVerdict.Outcome.BLACK_HOLE;
import static org.netpubsub.network.nbi.InvariantVerdict.Outcome.LOOP;

import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * Algorithm 2, lines 18–27, on the network of the paper's Figure 5: switches A..F (1..6), a host
 * under A and one under F. Ports are named after the neighbour they lead to (port 2 of A leads to
 * B), and port 9 is the host port.
 */
class InvariantCheckerTest {
  static final long A = 1, B = 2, C = 3, D = 4, E = 5, F = 6;
  static final long HOST_PORT = 9;
  static final Ipv6Address HF = Ipv6Address.parse("2001:db8::6");
  static final Ipv6Address HA = Ipv6Address.parse("2001:db8::1");
  static final MaskedIpv6 TO_F = MaskedIpv6.exact(HF);

  static Link link(long x, long y) {
    return Link.of(x, y, y, x);
  }

  static final Topology FIGURE_5 =
      Topology.EMPTY
          .addLink(link(A, B))
          .addLink(link(B, D))
          .addLink(link(B, C))
          .addLink(link(C, D))
          .addLink(link(C, E))
          .addLink(link(D, F))
          .addLink(link(E, F))
          .addSwitch(A, HOST_PORT)
          .addSwitch(F, HOST_PORT)
          .addHost(new Host(HA, new MacAddress(1), SwitchPort.of(A, HOST_PORT)))
          .addHost(new Host(HF, new MacAddress(6), SwitchPort.of(F, HOST_PORT)));

  InvariantChecker checker;

  static RouteChange to(long at, long port) {
    return RouteChange.output(at, TO_F, port);
  }

  /** Shortest paths to F, installed from F outwards: A→B→D→F, C→E→F. */
  @BeforeEach
  void preRouting() {
    checker = new InvariantChecker(FIGURE_5);
    for (RouteChange c :
        new RouteChange[] {to(F, HOST_PORT), to(D, F), to(E, F), to(C, E), to(B, D), to(A, B)}) {
      assertThat(checker.check(c).outcome()).as("%s", c).isEqualTo(ACCEPT);
    }
    assertThat(checker.brokenSwitches(TO_F)).isEmpty();
  }

  @Test
  void refusesTheSecondAppsLoopOfFigure6() {
    // app X moves D onto D→C→E→F (Figure 6b): fine
    assertThat(checker.check(to(D, C))).isEqualTo(InvariantVerdict.ACCEPT);
    Map<Long, Long> before = checker.rules(TO_F);
    // app Y sends C to B: B→D→C→B loops (Figure 6c)
    InvariantVerdict v = checker.check(to(C, B));
    assertThat(v.outcome()).isEqualTo(LOOP);
    assertThat(v.reason()).contains("comes back to");
    assertThat(checker.rules(TO_F)).isEqualTo(before); // refused: untouched
    assertThat(checker.rules(TO_F)).containsEntry(C, E).containsEntry(D, C);
  }

  @Test
  void refusesOutputIntoNothing() {
    assertThat(checker.check(to(B, 7)).outcome()).isEqualTo(BLACK_HOLE); // no such port
    assertThat(checker.check(to(A, HOST_PORT)).outcome()).isEqualTo(BLACK_HOLE); // wrong host
    assertThat(checker.check(RouteChange.output(A, MaskedIpv6.exact(HA), HOST_PORT)).outcome())
        .isEqualTo(ACCEPT);
    // a prefix is delivered to any host inside it
    MaskedIpv6 subnet = MaskedIpv6.parse("2001:db8::/64");
    assertThat(checker.check(RouteChange.output(F, subnet, HOST_PORT)).outcome()).isEqualTo(ACCEPT);
    // a destination no host has: nothing delivers it
    MaskedIpv6 unknown = MaskedIpv6.parse("2001:db8::99");
    assertThat(checker.check(RouteChange.output(F, unknown, HOST_PORT)).outcome())
        .isEqualTo(BLACK_HOLE);
    // towards a switch without a rule for the destination
    assertThat(checker.check(RouteChange.output(B, subnet, D)).reason()).contains("4 has no rule");
  }

  @Test
  void whereMissesReachTheControllerHopByHopRulesAreFineButLoopsAndDeadPortsAreNot() {
    InvariantChecker reactive = new InvariantChecker(FIGURE_5, true);
    // a learning switch installs the first hop before the next switch knows anything
    assertThat(reactive.check(to(A, B)).outcome()).isEqualTo(ACCEPT);
    assertThat(reactive.check(to(B, D)).outcome()).isEqualTo(ACCEPT);
    assertThat(reactive.check(to(D, B)).outcome()).isEqualTo(LOOP);
    assertThat(reactive.check(to(D, 7)).outcome()).isEqualTo(BLACK_HOLE); // no such port
    assertThat(reactive.check(RouteChange.drop(B, TO_F)).outcome()).isEqualTo(ACCEPT);
    // the same first hop where misses drop
    assertThat(new InvariantChecker(FIGURE_5).check(to(A, B)).outcome()).isEqualTo(BLACK_HOLE);
  }

  @Test
  void refusesRemovingARuleOthersForwardInto() {
    InvariantVerdict v = checker.check(RouteChange.drop(D, TO_F));
    assertThat(v.outcome()).isEqualTo(BLACK_HOLE);
    assertThat(v.reason()).contains("[2]"); // B forwards into D
    assertThat(checker.rules(TO_F)).containsEntry(D, F);
    // from the edge inwards it works
    assertThat(checker.check(RouteChange.drop(A, TO_F)).outcome()).isEqualTo(ACCEPT);
    assertThat(checker.check(RouteChange.drop(B, TO_F)).outcome()).isEqualTo(ACCEPT);
    assertThat(checker.check(RouteChange.drop(D, TO_F)).outcome()).isEqualTo(ACCEPT);
    assertThat(checker.rules(TO_F)).containsOnlyKeys(C, E, F);
    assertThat(checker.check(RouteChange.drop(D, TO_F)).outcome()).isEqualTo(ACCEPT); // no rule
  }

  @Test
  void afterALinkFailsRefusesWhatStaysBrokenAndAcceptsRepairs() {
    checker.linkDown(link(D, F));
    assertThat(checker.brokenSwitches(TO_F)).containsExactly(A, B, D);
    // moving B onto D again is still broken
    assertThat(checker.check(to(B, D)).outcome()).isEqualTo(BLACK_HOLE);
    // repairs, inside out: D via E (no link D-E: refused), then D via C
    assertThat(checker.check(to(D, E)).outcome()).isEqualTo(BLACK_HOLE);
    assertThat(checker.check(to(D, C)).outcome()).isEqualTo(ACCEPT);
    assertThat(checker.brokenSwitches(TO_F)).isEmpty();
    // the link comes back: D→C→E→F still fine, and D→F allowed again
    checker.linkUp(link(D, F));
    assertThat(checker.check(to(D, F)).outcome()).isEqualTo(ACCEPT);
    assertThat(checker.topology()).isEqualTo(FIGURE_5);
  }

  @Test
  void aLinkDownUpdatesWhoForwardsIntoWhom() {
    checker.linkDown(link(A, B));
    // A's rule now leads nowhere, so it no longer forwards into B: B's rule may go
    assertThat(checker.check(RouteChange.drop(B, TO_F)).outcome()).isEqualTo(ACCEPT);
    checker.replaceTopology(FIGURE_5);
    assertThat(checker.brokenSwitches(TO_F)).containsExactly(A);
    // A forwards into B again, so B stays without a rule only as long as it has none
    assertThat(checker.check(RouteChange.drop(B, TO_F)).outcome()).isEqualTo(BLACK_HOLE);
    assertThat(checker.check(to(B, D)).outcome()).isEqualTo(ACCEPT);
    assertThat(checker.brokenSwitches(TO_F)).isEmpty();
  }

  @Test
  void aCableFromASwitchToItselfIsALoop() {
    checker.replaceTopology(FIGURE_5.addLink(Link.of(C, 20, C, 21)));
    assertThat(checker.check(to(C, 20)).outcome()).isEqualTo(LOOP);
  }

  @Test
  void destinationsAreIndependent() {
    assertThat(checker.destinations()).containsExactly(TO_F);
    MaskedIpv6 toA = MaskedIpv6.exact(HA);
    assertThat(checker.check(RouteChange.output(B, toA, A)).outcome()).isEqualTo(BLACK_HOLE);
    assertThat(checker.check(RouteChange.output(A, toA, HOST_PORT)).outcome()).isEqualTo(ACCEPT);
    assertThat(checker.check(RouteChange.output(B, toA, A)).outcome()).isEqualTo(ACCEPT);
    assertThat(checker.destinations()).containsExactlyInAnyOrder(TO_F, toA);
    assertThat(checker.rules(toA)).containsExactly(Map.entry(A, HOST_PORT), Map.entry(B, A));
    assertThat(checker.rules(MaskedIpv6.parse("::1"))).isEmpty();
  }

  @Test
  void followsOnlyPhysicalPorts() {
    assertThatThrownBy(() -> RouteChange.output(A, TO_F, OfPort.FLOOD))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new InvariantChecker(null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(RouteChange.drop(A, TO_F).toString()).isEqualTo("1 2001:db8::6 -> drop");
  }
}
