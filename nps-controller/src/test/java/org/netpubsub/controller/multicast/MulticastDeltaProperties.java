package org.netpubsub.controller.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.flows.FlowStore;
import org.netpubsub.controller.southbound.DesiredState;
import org.netpubsub.controller.southbound.Reconciler;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.multicast.GroupForwarding;
import org.netpubsub.network.multicast.GroupSpec;
import org.netpubsub.network.multicast.TreeStrategy;
import org.netpubsub.network.openflow.OpenFlowError;
import org.netpubsub.network.openflow.SimulatedSwitch;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * Differential: the multicast app's deltas ({@link MulticastGroups#delta}, from the owner's stored
 * entries to the new ones, applied to the store and to the switch) against its naive twin (the
 * whole entries replaced in the store, the switch reconciled to its desired state), over random
 * sequences of joins, leaves, removed groups and avoided links on random networks: every switch
 * takes every delta op without an error, and the store and every switch end up the same on both
 * sides after every step.
 */
class MulticastDeltaProperties {
  private static final Owner OWNER = Owner.MULTICAST_GROUPS;
  private static final int PORTS = 24;

  @Property(tries = 25)
  void deltasLeaveTheSwitchesAsReplaceAndReconcile(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 7) int switches) {
    Random r = new Random(seed);
    Topology t = network(r, switches);
    List<Ipv6Address> hosts = new ArrayList<>(t.hosts().keySet());
    GroupForwarding forwarding = new GroupForwarding(t);
    Side delta = new Side(t);
    Side naive = new Side(t);
    Map<String, Set<Ipv6Address>> members = new TreeMap<>();
    Map<String, Set<Ipv6Address>> sources = new TreeMap<>();
    for (int step = 0; step < 24; step++) {
      String name = "g" + r.nextInt(3);
      Set<Long> changed;
      int op = r.nextInt(10);
      if (op == 0) {
        Set<Link> avoid = new HashSet<>();
        t.links().forEach(l -> (r.nextInt(3) == 0 ? avoid : new HashSet<Link>()).add(l));
        changed = forwarding.avoid(avoid);
      } else if (op == 1) {
        members.remove(name);
        sources.remove(name);
        changed = forwarding.remove(name);
      } else {
        Ipv6Address h = hosts.get(r.nextInt(hosts.size()));
        // joins twice as often as leaves; a host joins as a member, a source or both
        boolean join = op < 8;
        Set<Ipv6Address> m = members.computeIfAbsent(name, n -> new TreeSet<>());
        Set<Ipv6Address> s = sources.computeIfAbsent(name, n -> new TreeSet<>());
        if (r.nextBoolean() || !join) {
          edit(m, h, join);
        }
        if (r.nextBoolean() || !join) {
          edit(s, h, join);
        }
        changed =
            m.isEmpty() && s.isEmpty()
                ? forwarding.remove(name)
                : forwarding.put(GroupSpec.of(name, m, s, TreeStrategy.DIRECT));
      }
      for (long dpid : changed) {
        DesiredState next = new DesiredState(forwarding.flows(dpid), forwarding.groups(dpid));
        List<SwitchMod> ops = MulticastGroups.delta(delta.store.owned(OWNER, dpid), next);
        delta.store.apply(OWNER, dpid, ops);
        delta.send(dpid, ops);
        naive.store.replace(OWNER, dpid, next.flows(), next.groups());
        SimulatedSwitch sw = naive.switches.get(dpid);
        naive.send(
            dpid, Reconciler.plan(naive.store.desired(dpid), sw.flows(), sw.groups()).mods());
      }
      for (long dpid : t.switches()) {
        FlowStore.Owned a = delta.store.owned(OWNER, dpid);
        FlowStore.Owned b = naive.store.owned(OWNER, dpid);
        SimulatedSwitch x = delta.switches.get(dpid);
        SimulatedSwitch y = naive.switches.get(dpid);
        // entry order aside (the store keeps an entry's first position), the same entries
        Map<String, List<List<?>>> sides =
            Map.of(
                "stored flows", List.of(a.flows(), b.flows()),
                "stored groups", List.of(a.groups(), b.groups()),
                "switch flows", List.of(x.flows(), y.flows()),
                "switch groups", List.of(x.groups(), y.groups()));
        sides.forEach(
            (what, two) ->
                assertThat(new HashSet<>(two.get(0)))
                    .as("%s of %d", what, dpid)
                    .isEqualTo(new HashSet<>(two.get(1))));
      }
    }
  }

  private static void edit(Set<Ipv6Address> s, Ipv6Address h, boolean join) {
    if (join) {
      s.add(h);
    } else {
      s.remove(h);
    }
  }

  /** One way of writing: a store and a simulated switch per dpid. */
  private static final class Side {
    final FlowStore store = new FlowStore();
    final Map<Long, SimulatedSwitch> switches = new HashMap<>();

    Side(Topology t) {
      store.register(OWNER);
      long[] ports = new long[PORTS];
      for (int i = 0; i < PORTS; i++) {
        ports[i] = i + 1;
      }
      t.switches().forEach(d -> switches.put(d, SimulatedSwitch.builder().ports(ports).build()));
    }

    /** Sends the ops to the switch; each must take effect, as on a real switch. */
    void send(long dpid, List<SwitchMod> ops) {
      SimulatedSwitch sw = switches.get(dpid);
      for (SwitchMod m : ops) {
        java.util.Optional<OpenFlowError> e =
            switch (m) {
              case SwitchMod.Flow f -> sw.apply(f.mod());
              case SwitchMod.Group g -> sw.apply(g.mod());
            };
        assertThat(e).as("switch %d answers %s", dpid, m).isEmpty();
      }
    }
  }

  /** A random tree of switches 1..n plus a link or two, one or two hosts on each switch. */
  private static Topology network(Random r, int n) {
    Topology t = Topology.EMPTY;
    Map<Long, Long> nextPort = new HashMap<>();
    for (long d = 1; d <= n; d++) {
      t = t.addSwitch(d);
      nextPort.put(d, 1L);
    }
    int extra = n > 2 ? r.nextInt(3) : 0;
    for (int i = 2; i <= n + extra; i++) {
      long a = i <= n ? 1 + r.nextInt(i - 1) : 1 + r.nextInt(n);
      long b = i <= n ? i : 1 + r.nextInt(n);
      if (a == b) {
        continue;
      }
      t = t.addLink(Link.of(a, next(nextPort, a), b, next(nextPort, b)));
    }
    int host = 0;
    for (long d = 1; d <= n; d++) {
      for (int k = 1 + r.nextInt(2); k > 0; k--) {
        host++;
        t =
            t.addHost(
                new Host(
                    new Ipv6Address(0x2001_0db8_0000_0000L, host),
                    new MacAddress(0x02_00_00_00_00_00L | host),
                    new SwitchPort(d, next(nextPort, d))));
      }
    }
    return t;
  }

  private static long next(Map<Long, Long> nextPort, long dpid) {
    long p = nextPort.get(dpid);
    nextPort.put(dpid, p + 1);
    return p;
  }
}
