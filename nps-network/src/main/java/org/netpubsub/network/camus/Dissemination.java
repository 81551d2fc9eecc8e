package org.netpubsub.network.camus;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.netpubsub.compiler.target.software.SoftwarePipeline;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.topology.SwitchPort;

/**
 * One message's way through the fabric, hop by hop, each switch running its compiled tables ({@link
 * SoftwarePipeline}) and then the two port rules of Camus §4: a message never leaves by its ingress
 * port, and a message that came in on an up port is never sent up again; a message for the logical
 * up port leaves by one physical up port ({@link UpPortChoice}). The tables are read once, when the
 * dissemination is made: make a new one after an update.
 */
public final class Dissemination {
  /** A message sent out of switch {@code dpid} by {@code port}. */
  public record Transmission(long dpid, long port) {}

  /**
   * The outcome: every transmission in the order made, and per host index the copies it received.
   */
  public record Result(Ipv6Address publisher, List<Transmission> transmissions, int[] copies) {
    public Result {
      transmissions = List.copyOf(transmissions);
      copies = copies.clone();
    }

    @Override
    public int[] copies() {
      return copies.clone();
    }

    /** The hosts that received at least one copy. */
    public BitSet receivers() {
      BitSet b = new BitSet();
      for (int i = 0; i < copies.length; i++) {
        if (copies[i] > 0) {
          b.set(i);
        }
      }
      return b;
    }

    /** The largest number of copies any host received (1 when forwarding is right). */
    public int maxCopies() {
      int m = 0;
      for (int c : copies) {
        m = Math.max(m, c);
      }
      return m;
    }
  }

  private final Hierarchy hierarchy;
  private final Map<Long, SoftwarePipeline> tables;
  private final UpPortChoice choice;
  private final int bound;

  private Dissemination(
      Hierarchy hierarchy, Map<Long, SoftwarePipeline> tables, UpPortChoice choice) {
    this.hierarchy = hierarchy;
    this.tables = tables;
    this.choice = choice;
    int ports = 0;
    for (long s : hierarchy.bottomUp()) {
      ports += hierarchy.upPorts(s).size() + hierarchy.downPorts(s).size();
    }
    this.bound = ports; // each port sends a message at most once on a hierarchy
  }

  /** The routing's current tables, up ports chosen by {@code choice}. */
  public static Dissemination of(CamusRouting routing, UpPortChoice choice) {
    Map<Long, SoftwarePipeline> tables = new HashMap<>();
    routing
        .compilations()
        .forEach((dpid, c) -> tables.put(dpid, SoftwarePipeline.of(c.pipeline())));
    return new Dissemination(routing.hierarchy(), Collections.unmodifiableMap(tables), choice);
  }

  /**
   * Host {@code publisher} sends a message with these query field values (in the spec's field
   * order). IllegalStateException if the message is forwarded more often than the fabric has ports,
   * which only a forwarding loop can cause.
   */
  public Result publish(Ipv6Address publisher, long[] values) {
    var host = hierarchy.topology().host(publisher);
    if (host.isEmpty()) {
      throw new IllegalArgumentException("no host " + publisher);
    }
    int[] copies = new int[hierarchy.hosts().size()];
    List<Transmission> sent = new ArrayList<>();
    ArrayDeque<SwitchPort> arrivals = new ArrayDeque<>();
    arrivals.add(host.get().attachment());
    while (!arrivals.isEmpty()) {
      SwitchPort in = arrivals.poll();
      long s = in.dpid();
      boolean fromAbove = hierarchy.isUpPort(in);
      for (int a : tables.get(s).actions(values)) {
        long out;
        if (a == LocalRules.UP) {
          if (fromAbove || hierarchy.upPorts(s).isEmpty()) {
            continue;
          }
          out = choice.choose(s, hierarchy.upPorts(s), values);
        } else if (a == in.port()) {
          continue;
        } else {
          out = a;
        }
        sent.add(new Transmission(s, out));
        if (sent.size() > bound) {
          throw new IllegalStateException("a forwarding loop: more than " + bound + " hops");
        }
        SwitchPort port = new SwitchPort(s, out);
        BitSet there = hierarchy.hostsAt(port);
        if (!there.isEmpty()) {
          there.stream().forEach(i -> copies[i]++);
        } else if (hierarchy.topology().linkAt(port).isPresent()) {
          arrivals.add(hierarchy.peer(port));
        }
      }
    }
    return new Result(publisher, sent, copies);
  }
}
