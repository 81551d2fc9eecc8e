package org.netpubsub.network.nbi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.topology.Hop;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

/**
 * The incremental checker against its naive twin (whole graph rebuilt and walked from every switch
 * after each change) on random topologies, random route changes — many along shortest paths, so
 * that trees grow — and links failing and coming back: same verdicts, same rules, same broken
 * switches. And while no link has failed, accepted changes never leave anything broken.
 */
class InvariantCheckerProperties {

  sealed interface Op {}

  /** A change at switch {@code at} for destination {@code dest}, port chosen by {@code how}. */
  record Propose(int at, int dest, int how, int pick) implements Op {}

  /** Shortest-path changes for a destination at every switch, nearest first: a whole tree. */
  record InstallTree(int dest) implements Op {}

  record LinkDown(int link) implements Op {}

  record LinkUp(int link) implements Op {}

  @Provide
  Arbitrary<Topology> topologies() {
    Arbitrary<Topology> random =
        Combinators.combine(
                Arbitraries.longs(),
                Arbitraries.integers().between(2, 7),
                Arbitraries.integers().between(0, 4),
                Arbitraries.of(true, true, false))
            .as(
                (seed, n, extra, connected) ->
                    TestTopologies.random(seed, n, extra, connected, 0.4));
    Arbitrary<Topology> linear = Arbitraries.integers().between(2, 6).map(TestTopologies::linear);
    Arbitrary<Topology> tree =
        Arbitraries.integers().between(1, 3).map(f -> TestTopologies.tree(2, f));
    return Arbitraries.frequencyOf(Tuple.of(6, random), Tuple.of(2, linear), Tuple.of(1, tree));
  }

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Integer> any = Arbitraries.integers().between(0, 1000);
    Arbitrary<Op> propose =
        Combinators.combine(any, any, Arbitraries.integers().between(0, 9), any).as(Propose::new);
    return Arbitraries.frequencyOf(
            Tuple.of(12, propose),
            Tuple.of(1, any.map(InstallTree::new)),
            Tuple.of(1, any.map(LinkDown::new)),
            Tuple.of(1, any.map(LinkUp::new)))
        .list()
        .ofMaxSize(80);
  }

  @Property(tries = 400)
  void agreesWithTheNaiveTwin(@ForAll("topologies") Topology t, @ForAll("ops") List<Op> ops) {
    InvariantChecker fast = new InvariantChecker(t);
    NaiveInvariantChecker naive = new NaiveInvariantChecker(t);
    List<MaskedIpv6> dests = destinations(t);
    List<Long> switches = new ArrayList<>(t.switches());
    List<Link> links = new ArrayList<>(t.links());
    boolean linkFailed = false;
    for (Op op : ops) {
      switch (op) {
        case Propose p -> {
          MaskedIpv6 dest = dests.get(p.dest() % dests.size());
          long at = switches.get(p.at() % switches.size());
          RouteChange c = change(fast.topology(), fast.rules(dest), at, dest, p.how(), p.pick());
          InvariantVerdict.Outcome expected = naive.check(c);
          assertThat(fast.check(c).outcome()).as("%s", c).isEqualTo(expected);
          Statistics.collect(expected);
        }
        case InstallTree i -> {
          MaskedIpv6 dest = dests.get(i.dest() % dests.size());
          Topology now = fast.topology();
          Host target =
              now.hosts().values().stream()
                  .filter(h -> dest.matches(h.address()))
                  .findFirst()
                  .orElse(null);
          if (target != null) {
            Map<Long, Integer> distance = now.distances(target.attachment().dpid());
            List<Long> nearestFirst = new ArrayList<>(distance.keySet());
            nearestFirst.sort(Comparator.comparing(distance::get));
            for (long at : nearestFirst) {
              RouteChange c = change(now, fast.rules(dest), at, dest, 0, 0);
              InvariantVerdict.Outcome expected = naive.check(c);
              assertThat(fast.check(c).outcome()).as("%s", c).isEqualTo(expected);
            }
          }
        }
        case LinkDown d when !links.isEmpty() -> {
          Link l = links.get(d.link() % links.size());
          fast.linkDown(l);
          naive.topology = naive.topology.removeLink(l);
          linkFailed = true;
        }
        case LinkUp u when !links.isEmpty() -> {
          Link l = links.get(u.link() % links.size());
          fast.linkUp(l);
          naive.topology = naive.topology.addLink(l);
        }
        default -> {}
      }
      for (MaskedIpv6 d : dests) {
        assertThat(fast.rules(d)).isEqualTo(naive.rules(d));
        assertThat(fast.brokenSwitches(d)).isEqualTo(naive.broken(d));
        if (!linkFailed) {
          assertThat(fast.brokenSwitches(d)).isEmpty();
        }
      }
    }
  }

  /**
   * Up to three hosts (the first weighted thrice, so that its tree grows tall enough to loop), the
   * prefix of all test hosts, and an address no host has.
   */
  static List<MaskedIpv6> destinations(Topology t) {
    List<MaskedIpv6> out = new ArrayList<>();
    t.hosts().keySet().stream().limit(3).map(MaskedIpv6::exact).forEach(out::add);
    if (!out.isEmpty()) {
      out.add(out.get(0));
      out.add(out.get(0));
    }
    out.add(MaskedIpv6.prefix(TestTopologies.hostAddress(0), 64));
    out.add(MaskedIpv6.exact(TestTopologies.hostAddress(0xffff)));
    return out;
  }

  /**
   * how 0–2: along the shortest path towards a host of the destination (its port if here); 3–4:
   * towards a neighbour with a rule, one forwarding here if any (3: loops); 5–7: a random known
   * port of the switch; 8: a port the switch does not have; 9: drop.
   */
  static RouteChange change(
      Topology t, Map<Long, Long> rules, long at, MaskedIpv6 dest, int how, int pick) {
    if (how == 9) {
      return RouteChange.drop(at, dest);
    }
    if (how == 8) {
      return RouteChange.output(at, dest, 999);
    }
    if (how == 3 || how == 4) {
      List<Hop> ruled =
          t.hopsFrom(at).stream().filter(h -> rules.containsKey(h.to().dpid())).toList();
      List<Hop> back =
          ruled.stream().filter(h -> h.to().port() == rules.get(h.to().dpid())).toList();
      if (how == 3 && !back.isEmpty()) { // to a neighbour that forwards to here
        return RouteChange.output(at, dest, back.get(pick % back.size()).from().port());
      }
      if (!ruled.isEmpty()) {
        return RouteChange.output(at, dest, ruled.get(pick % ruled.size()).from().port());
      }
    }
    if (how <= 2) {
      Host target =
          t.hosts().values().stream()
              .filter(h -> dest.matches(h.address()))
              .findFirst()
              .orElse(null);
      if (target != null) {
        long there = target.attachment().dpid();
        if (there == at) {
          return RouteChange.output(at, dest, target.attachment().port());
        }
        Hop h = t.nextHop(at, there).orElse(null);
        if (h != null) {
          return RouteChange.output(at, dest, h.from().port());
        }
      }
    }
    List<Long> ports = new ArrayList<>(t.ports(at));
    return ports.isEmpty()
        ? RouteChange.drop(at, dest)
        : RouteChange.output(at, dest, ports.get(pick % ports.size()));
  }
}
