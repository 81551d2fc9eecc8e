package org.netpubsub.network.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.netpubsub.content.address.Ipv6Address;

/**
 * Topologies for tests: linear, trees, random graphs (connected or not, with parallel links), and
 * the k-ary fat tree of Al-Fares et al. Ports are numbered per switch from 1 in the order links and
 * hosts are added; host {@code i} (from 1) has address 2001:db8::i and MAC 02:00:00:00:00:i.
 */
public final class TestTopologies {
  private final Map<Long, Long> nextPort = new HashMap<>();
  private Topology t = Topology.EMPTY;
  private int hosts;

  private TestTopologies() {}

  /** Starts an empty builder. */
  public static TestTopologies builder() {
    return new TestTopologies();
  }

  public TestTopologies addSwitch(long dpid) {
    nextPort.putIfAbsent(dpid, 1L);
    t = t.addSwitch(dpid);
    return this;
  }

  /** Links the next free ports of two switches. */
  public TestTopologies link(long a, long b) {
    addSwitch(a).addSwitch(b);
    long pa = port(a);
    long pb = port(b);
    t = t.addLink(Link.of(a, pa, b, pb));
    return this;
  }

  /** Attaches a new host at the next free port of a switch. */
  public TestTopologies host(long dpid) {
    addSwitch(dpid);
    hosts++;
    t = t.addHost(new Host(hostAddress(hosts), hostMac(hosts), new SwitchPort(dpid, port(dpid))));
    return this;
  }

  /** Adds an edge port without a host. */
  public TestTopologies spare(long dpid) {
    addSwitch(dpid);
    t = t.addSwitch(dpid, port(dpid));
    return this;
  }

  private long port(long dpid) {
    long p = nextPort.get(dpid);
    nextPort.put(dpid, p + 1);
    return p;
  }

  public Topology build() {
    return t;
  }

  public static Ipv6Address hostAddress(int i) {
    return new Ipv6Address(0x2001_0db8_0000_0000L, i);
  }

  public static MacAddress hostMac(int i) {
    return new MacAddress(0x02_00_00_00_00_00L | i);
  }

  /** Switches 1..n in a line, one host on each. */
  public static Topology linear(int n) {
    TestTopologies b = builder();
    for (int i = 1; i <= n; i++) {
      b.addSwitch(i);
      if (i > 1) {
        b.link(i - 1, i);
      }
    }
    for (int i = 1; i <= n; i++) {
      b.host(i);
    }
    return b.build();
  }

  /** A complete tree of the given depth and fanout (switch 1 the root), a host on each leaf. */
  public static Topology tree(int depth, int fanout) {
    TestTopologies b = builder().addSwitch(1);
    List<Long> level = List.of(1L);
    long next = 2;
    for (int d = 0; d < depth; d++) {
      List<Long> below = new ArrayList<>();
      for (long parent : level) {
        for (int f = 0; f < fanout; f++) {
          b.link(parent, next);
          below.add(next++);
        }
      }
      level = below;
    }
    level.forEach(b::host);
    return b.build();
  }

  /**
   * The k-ary fat tree: (k/2)^2 core switches (dpids 0x1nn), k pods of k/2 aggregation (0x2nn) and
   * k/2 edge switches (0x3nn), k/2 hosts per edge switch. k=4: 20 switches, 32 links, 16 hosts.
   */
  public static Topology fatTree(int k) {
    if (k < 2 || k % 2 != 0) {
      throw new IllegalArgumentException("k must be even: " + k);
    }
    int half = k / 2;
    TestTopologies b = builder();
    for (int pod = 0; pod < k; pod++) {
      for (int e = 0; e < half; e++) {
        for (int a = 0; a < half; a++) {
          b.link(0x300 + pod * half + e, 0x200 + pod * half + a);
        }
      }
    }
    for (int pod = 0; pod < k; pod++) {
      for (int a = 0; a < half; a++) {
        for (int c = 0; c < half; c++) {
          b.link(0x200 + pod * half + a, 0x100 + a * half + c);
        }
      }
    }
    for (int e = 0; e < k * half; e++) {
      for (int h = 0; h < half; h++) {
        b.host(0x300 + e);
      }
    }
    return b.build();
  }

  /**
   * A random graph on n switches with random (some very large, unsigned) dpids: a random spanning
   * tree if {@code connected}, plus {@code extra} random links (parallel links and, if not
   * connected, isolated parts likely); each switch gets another host with probability {@code
   * hostRate}, repeatedly.
   */
  public static Topology random(long seed, int n, int extra, boolean connected, double hostRate) {
    Random r = new Random(seed);
    TestTopologies b = builder();
    long[] dpids = new long[n];
    for (int i = 0; i < n; i++) {
      long d;
      do {
        d = r.nextInt(4) == 0 ? r.nextLong() : 1 + r.nextInt(4 * n);
      } while (b.nextPort.containsKey(d));
      dpids[i] = d;
      b.addSwitch(d);
    }
    if (connected) {
      for (int i = 1; i < n; i++) {
        b.link(dpids[r.nextInt(i)], dpids[i]);
      }
    }
    for (int i = 0; i < extra && n > 1; i++) {
      int x = r.nextInt(n);
      int y = r.nextInt(n - 1);
      b.link(dpids[x], dpids[y >= x ? y + 1 : y]);
    }
    for (int i = 0; i < n; i++) {
      while (r.nextDouble() < hostRate) {
        b.host(dpids[i]);
      }
    }
    return b.build();
  }
}
