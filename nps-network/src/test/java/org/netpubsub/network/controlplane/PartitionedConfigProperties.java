package org.netpubsub.network.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.network.pleroma.Configurator;
import org.netpubsub.network.pleroma.ContentTable;
import org.netpubsub.network.pleroma.EventEgress;
import org.netpubsub.network.pleroma.RandomCells;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

/**
 * Partitioned CP-configs processed in any interleaving of their FIFO queues against one
 * configurator processing the requests in order: the same flows as one configurator given the split
 * requests, and the same forwarding of every event as one configurator given the originals.
 */
class PartitionedConfigProperties {
  static final Topology NET = TestTopologies.fatTree(4);
  static final int EVENT_DEPTH = 7;

  @Property(tries = 80)
  void anyInterleavingOfPartitionQueuesForwardsAsOneConfigurator(
      @ForAll("partitions") Partitions partitions, @ForAll long seed) {
    Random random = new Random(seed);
    List<ControlRequest> requests = requests(random, 30 + random.nextInt(30));

    Configurator whole = Configurator.on(NET);
    Configurator splitReference = Configurator.on(NET);
    Dispatcher dispatcher = new Dispatcher(partitions);
    Map<Dz, Deque<ControlRequest>> queues = new LinkedHashMap<>();
    for (ControlRequest r : requests) {
      r.applyTo(whole);
      dispatcher
          .split(r)
          .forEach(
              (p, part) -> {
                queues.computeIfAbsent(p, x -> new ArrayDeque<>()).add(part);
                partIn(p, part).applyTo(splitReference);
              });
    }
    Map<Dz, Configurator> configs = new LinkedHashMap<>();
    partitions.all().forEach(p -> configs.put(p, Configurator.on(NET)));
    List<Dz> pending = new ArrayList<>(queues.keySet());
    while (!pending.isEmpty()) {
      Dz p = pending.get(random.nextInt(pending.size()));
      queues.get(p).poll().applyTo(configs.get(p));
      if (queues.get(p).isEmpty()) {
        pending.remove(p);
      }
    }

    for (long dpid : NET.switches()) {
      // partitions' flows never overlap: a switch's table is their plain union
      SortedMap<Dz, SortedSet<EventEgress>> union = new TreeMap<>();
      configs.values().forEach(c -> union.putAll(c.table(dpid)));
      assertThat(union).as("switch %x", dpid).isEqualTo(splitReference.table(dpid));
      for (Dz event : allDz(EVENT_DEPTH)) {
        assertThat(ContentTable.lookup(union, event))
            .as("event %s at switch %x", event, dpid)
            .isEqualTo(ContentTable.lookup(whole.table(dpid), event));
      }
    }
  }

  @Provide
  Arbitrary<Partitions> partitions() {
    return Arbitraries.of(
        Partitions.uniform(1),
        Partitions.uniform(4),
        Partitions.uniform(16),
        PartitionsTest.FIGURE_6);
  }

  /** A part under its own id, as one configurator holding all partitions would need it. */
  private static ControlRequest partIn(Dz partition, ControlRequest part) {
    return new ControlRequest(
        part.kind(), part.id() + "@" + partition.bits(), part.host(), part.udpPort(), part.cells());
  }

  /** Random additions and withdrawals of standing requests by random hosts. */
  static List<ControlRequest> requests(Random random, int n) {
    List<Ipv6Address> hosts = new ArrayList<>(NET.hosts().keySet());
    List<ControlRequest> standing = new ArrayList<>();
    List<ControlRequest> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (!standing.isEmpty() && random.nextInt(4) == 0) {
        out.add(standing.remove(random.nextInt(standing.size())).withdrawal());
        continue;
      }
      Ipv6Address host = hosts.get(random.nextInt(hosts.size()));
      DzSet cells = RandomCells.of(random, 5);
      ControlRequest r =
          random.nextInt(3) == 0
              ? ControlRequest.advertise("a" + i, host, cells)
              : ControlRequest.subscribe("s" + i, host, 7000 + random.nextInt(2), cells);
      standing.add(r);
      out.add(r);
    }
    return out;
  }

  static List<Dz> allDz(int depth) {
    List<Dz> out = new ArrayList<>();
    for (int i = 0; i < 1 << depth; i++) {
      Dz d = Dz.EMPTY;
      for (int b = depth - 1; b >= 0; b--) {
        d = d.append((i >>> b) & 1);
      }
      out.add(d);
    }
    return out;
  }
}
