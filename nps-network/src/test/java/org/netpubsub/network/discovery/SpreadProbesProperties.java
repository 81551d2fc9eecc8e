package org.netpubsub.network.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;

/**
 * Probes spread over an interval's windows ({@link LinkDiscovery.Config#slots}): which ports are
 * probed at each call, against a naive twin that scans every window start; a port's gap between
 * probes; and the burst a call sends once every port has had its first probe.
 */
class SpreadProbesProperties {

  @Property(tries = 100)
  void spreadProbesFollowTheirWindows(
      @ForAll @LongRange(min = 10, max = 5_000) long interval,
      @ForAll @IntRange(min = 2, max = 10) int slots,
      @ForAll @IntRange(min = 1, max = 6) int switches,
      @ForAll @IntRange(min = 1, max = 8) int portsEach,
      @ForAll @LongRange(min = -10_000, max = 10_000) long start,
      @ForAll long seed) {
    LinkDiscovery d =
        new LinkDiscovery(
            new LinkDiscovery.Config(interval, 3, 7, new MacAddress(2)).spreadOver(slots));
    Map<Long, Set<Long>> ports = new HashMap<>();
    for (long s = 1; s <= switches; s++) {
      Set<Long> p = new TreeSet<>();
      for (long n = 1; n <= portsEach; n++) {
        p.add(n);
      }
      ports.put(s * 0x1_0000_0001L, p); // dpids that hash and sort differently
    }
    List<SwitchPort> order = sorted(ports);
    int total = order.size();
    long narrowest = interval / slots; // every call at most one window after the last
    java.util.Random random = new java.util.Random(seed);
    Map<SwitchPort, Long> last = new HashMap<>();
    long now = start;
    for (int call = 0; now < start + 5 * interval; call++) {
      List<SwitchPort> got = new ArrayList<>();
      for (LinkDiscovery.Probe p : d.probes(now, ports)) {
        got.add(new SwitchPort(p.dpid(), p.port()));
      }
      List<SwitchPort> want = new ArrayList<>();
      for (int rank = 0; rank < total; rank++) {
        SwitchPort sp = order.get(rank);
        Long l = last.get(sp);
        if (l == null || naiveDue(l, now, interval, slots, rank % slots)) {
          want.add(sp);
        }
      }
      assertThat(got).as("call %d at %d", call, now).containsExactlyInAnyOrderElementsOf(want);
      for (SwitchPort sp : got) {
        Long l = last.get(sp);
        if (l != null) {
          assertThat(now - l).as("gap of %s", sp).isLessThan(interval + narrowest);
        }
        last.put(sp, now);
      }
      if (now >= start + interval) { // every port has had its turn: no burst
        assertThat(got.size()).as("probes at one call").isLessThanOrEqualTo(ceil(total, slots));
      }
      now += 1 + random.nextLong(Math.max(1, narrowest));
    }
  }

  /** Whether a window of the slot began in (last, now]: every start scanned, one by one. */
  private static boolean naiveDue(long last, long now, long interval, int slots, int slot) {
    long offset = interval * slot / slots;
    for (long k = Math.floorDiv(last, interval) - 1; k <= Math.floorDiv(now, interval) + 1; k++) {
      long t = k * interval + offset;
      if (t > last && t <= now) {
        return true;
      }
    }
    return false;
  }

  private static List<SwitchPort> sorted(Map<Long, Set<Long>> ports) {
    List<SwitchPort> out = new ArrayList<>();
    new TreeMap<>(ports).forEach((dpid, p) -> p.forEach(n -> out.add(new SwitchPort(dpid, n))));
    return out;
  }

  private static int ceil(int a, int b) {
    return (a + b - 1) / b;
  }
}
