package org.netpubsub.network.camus;

import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * The k-ary fat tree (Al-Fares et al.) numbered exactly as the Mininet test bed numbers it ({@code
 * testbed/nps_testbed/topologies.py fattree}), so that a switch, port or host named here is the one
 * the test bed runs: switch sN has dpid N — the (k/2)² cores first, then the aggregation switches
 * pod by pod, then the edge switches pod by pod; an edge switch's ports 1..k/2 lead to its hosts
 * and k/2+1..k up to its pod's aggregation switches; an aggregation switch's ports 1..k/2 lead down
 * to its pod's edge switches and k/2+1..k up to cores; core c (0-based) has port p+1 towards pod p.
 * Host hN (pod by pod, edge by edge) has the test bed's data address fd6e:7073:1::N (N in decimal
 * digits) and MAC 02:6e:70:73:NN:NN.
 */
public final class FatTree {
  /** Host numbers are written as at most four decimal digits (naming.py). */
  public static final int MAX_HOSTS = 9999;

  private FatTree() {}

  /** The k-ary fat tree: k even, k ≥ 2; k = 4 gives 20 switches, 32 links and 16 hosts. */
  public static Topology of(int k) {
    if (k < 2 || k % 2 != 0) {
      throw new IllegalArgumentException("a fat tree needs an even k >= 2, got " + k);
    }
    if ((long) k * k * k / 4 > MAX_HOSTS) {
      throw new IllegalArgumentException("fattree:" + k + " has more than " + MAX_HOSTS + " hosts");
    }
    int half = k / 2;
    int cores = half * half;
    Topology t = Topology.EMPTY;
    int host = 0;
    for (int pod = 0; pod < k; pod++) {
      for (int e = 0; e < half; e++) {
        long edge = edge(k, pod, e);
        for (int i = 0; i < half; i++) {
          host++;
          t = t.addSwitch(edge, i + 1);
          t = t.addHost(new Host(hostAddress(host), hostMac(host), new SwitchPort(edge, i + 1)));
        }
      }
    }
    for (int pod = 0; pod < k; pod++) {
      for (int e = 0; e < half; e++) {
        for (int a = 0; a < half; a++) {
          t = t.addLink(Link.of(aggregation(k, pod, a), e + 1, edge(k, pod, e), half + a + 1));
        }
      }
    }
    for (int pod = 0; pod < k; pod++) {
      for (int a = 0; a < half; a++) {
        for (int c = 0; c < half; c++) {
          long core = 1 + a * half + c;
          t = t.addLink(Link.of(aggregation(k, pod, a), half + c + 1, core, pod + 1));
        }
      }
    }
    if (t.switches().size() != cores + 2 * k * half) {
      throw new AssertionError("fat tree numbering");
    }
    return t;
  }

  /** The dpid of aggregation switch {@code a} (0-based) of pod {@code pod}. */
  public static long aggregation(int k, int pod, int a) {
    int half = k / 2;
    return 1 + half * half + pod * half + a;
  }

  /** The dpid of edge switch {@code e} (0-based) of pod {@code pod}. */
  public static long edge(int k, int pod, int e) {
    int half = k / 2;
    return 1 + half * half + k * half + pod * half + e;
  }

  /** The test bed's data address of host hN: fd6e:7073:1::N, N written in decimal digits. */
  public static Ipv6Address hostAddress(int n) {
    return Ipv6Address.parse("fd6e:7073:1::" + checkHost(n));
  }

  /** The test bed's data MAC of host hN: 02:6e:70:73 and N's four decimal digits. */
  public static MacAddress hostMac(int n) {
    String d = String.format("%04d", checkHost(n));
    return MacAddress.parse("02:6e:70:73:" + d.substring(0, 2) + ":" + d.substring(2));
  }

  /** The number N of host hN in a topology built by {@link #of}, from its address. */
  public static int hostNumber(Ipv6Address address) {
    Ipv6Address base = Ipv6Address.parse("fd6e:7073:1::");
    String digits = Long.toHexString(address.low());
    if (address.high() != base.high()
        || (address.low() & 0xffff) != address.low()
        || !digits.matches("[0-9]{1,4}")) {
      throw new IllegalArgumentException(address + " is no test bed host address");
    }
    return Integer.parseInt(digits);
  }

  private static int checkHost(int n) {
    if (n < 1 || n > MAX_HOSTS) {
      throw new IllegalArgumentException("host numbers are 1.." + MAX_HOSTS + ", got " + n);
    }
    return n;
  }
}
