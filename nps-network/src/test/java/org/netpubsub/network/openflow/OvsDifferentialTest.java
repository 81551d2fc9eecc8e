package org.netpubsub.network.openflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The simulated switch against a real Open vSwitch bridge: the same random flow-mods and group-mods
 * go to both; after each, both must have answered the same error (or none) and hold the same flows
 * and groups; then random packets must leave both by the same ports with the same headers (OVS's
 * forwarding read from {@code ofproto/trace}). Where OpenFlow leaves the switch a choice (select
 * buckets, equal-priority entries), OVS's answer must be one the simulated switch deems possible.
 * Fails if OVS cannot be started, unless {@code -Dnps.skipOvs=true}.
 */
class OvsDifferentialTest {
  private static final int PORTS = 4;

  /** Ports 1-3 are up; port 4 stays down, so fast-failover buckets watching it are dead. */
  private static final List<Integer> UP = List.of(1, 2, 3);

  /** {@code -Dnps.ovsDifferential.sequences=N} runs more (a soak); the default keeps it fast. */
  private static final int SEQUENCES = Integer.getInteger("nps.ovsDifferential.sequences", 20);

  private static final int MODS = 15;
  private static final int PACKETS = 20;

  private static OvsBridge bridge;

  @BeforeAll
  static void startOvs() {
    Assumptions.assumeFalse(
        Boolean.getBoolean("nps.skipOvs"), "nps.skipOvs=true: Open vSwitch test skipped");
    OvsBridge.ensureRunning();
    bridge = OvsBridge.create(PORTS, UP);
  }

  @AfterAll
  static void deleteBridge() {
    if (bridge != null) {
      bridge.close();
    }
  }

  @BeforeEach
  void clearBridge() {
    bridge.clear();
  }

  private static SimulatedSwitch newSwitch() {
    SimulatedSwitch sw = SimulatedSwitch.builder().ports(1, 2, 3, 4).build();
    for (long p = 1; p <= PORTS; p++) {
      sw.setPortLive(p, UP.contains((int) p));
    }
    return sw;
  }

  @Test
  void randomSequencesForwardAlike() {
    long start = System.nanoTime();
    java.util.Map<String, Integer> errors = new java.util.TreeMap<>();
    int rewritten = 0;
    int packets = 0;
    int delivered = 0;
    int ambiguous = 0;
    for (int seq = 0; seq < SEQUENCES; seq++) {
      long seed = 0x5eed0000L + seq;
      RandomOpenFlow gen = new RandomOpenFlow(seed, PORTS);
      SimulatedSwitch sw = newSwitch();
      bridge.clear();
      StringBuilder log = new StringBuilder();
      for (int i = 0; i < MODS; i++) {
        Object mod = gen.nextMod(sw);
        Optional<OpenFlowError> simError;
        Optional<String> ovsError;
        if (mod instanceof FlowMod fm) {
          simError = sw.apply(fm);
          ovsError = bridge.apply(fm);
        } else {
          GroupMod gm = (GroupMod) mod;
          simError = sw.apply(gm);
          ovsError = bridge.apply(gm);
        }
        log.append(mod).append(simError.map(e -> "  -> " + e.name()).orElse("")).append('\n');
        String context = "seed " + seed + ", messages so far:\n" + log;
        assertThat(simError.map(Enum::name))
            .as("error of the last message; " + context)
            .isEqualTo(ovsError);
        simError.ifPresent(e -> errors.merge(e.name(), 1, Integer::sum));
        assertThat(bridge.dumpFlows())
            .as("OVS flows vs simulated flows; " + context)
            .containsExactlyInAnyOrderElementsOf(sw.flows());
        assertThat(bridge.dumpGroups())
            .as("OVS groups vs simulated groups; " + context)
            .containsExactlyInAnyOrderElementsOf(sw.groups());
      }
      for (int j = 0; j < PACKETS; j++) {
        long inPort = gen.inPort();
        PacketHeaders h = gen.packet(sw);
        String trace = bridge.trace(inPort, h, gen.dpHash());
        Forwarding ovs = OvsTraceParser.parse(trace, h, bridge.datapathToOpenFlow());
        Set<Forwarding> possible = sw.possibleForwardings(inPort, h);
        assertThat(possible).contains(sw.forward(inPort, h));
        if (!possible.contains(ovs)) {
          fail(
              "seed %d: packet in_port=%d %s%nOVS: %s%nsimulated switch allows: %s%nflows:%n%s%ngroups:%n%s%nmessages:%n%s%ntrace:%n%s",
              seed, inPort, h, ovs, possible, lines(sw.flows()), lines(sw.groups()), log, trace);
        }
        packets++;
        delivered += ovs.isDrop() ? 0 : 1;
        ambiguous += possible.size() > 1 ? 1 : 0;
        rewritten += ovs.egresses().stream().anyMatch(e -> !e.headers().equals(h)) ? 1 : 0;
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(
        "OvsDifferentialTest: %d sequences x %d messages (refused alike: %s), %d packets"
            + " (%d forwarded, %d with rewritten headers, %d with several allowed outcomes),"
            + " %d OVS processes, %.1f s%n",
        SEQUENCES,
        MODS,
        errors,
        packets,
        delivered,
        rewritten,
        ambiguous,
        bridge.processes(),
        seconds);
    // The workload must exercise something: most packets go somewhere, some messages fail.
    assertThat(delivered).isGreaterThan(packets / 4);
    assertThat(errors).isNotEmpty();
  }

  private static String lines(List<?> items) {
    StringBuilder sb = new StringBuilder();
    items.forEach(i -> sb.append("  ").append(i).append('\n'));
    return sb.toString();
  }
}
