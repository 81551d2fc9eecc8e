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
import org.netpubsub.content.address.Ipv6Address;

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

  /** {@code -Dnps.ovsDifferential.seed=S} explores other sequences. */
  private static final long SEED_BASE = Long.getLong("nps.ovsDifferential.seed", 0x5eed0000L);

  private static final int MODS = Integer.getInteger("nps.ovsDifferential.messages", 15);
  private static final int PACKETS = 20;

  private static OvsBridge bridge;

  private static final boolean SKIP = Boolean.getBoolean("nps.skipOvs");

  @BeforeAll
  static void startOvs() {
    if (!SKIP) {
      OvsBridge.ensureRunning(); // fails (does not skip) if OVS cannot be started
      bridge = OvsBridge.create(PORTS, UP);
    }
  }

  @AfterAll
  static void deleteBridge() {
    if (bridge != null) {
      bridge.close();
    }
  }

  @BeforeEach
  void clearBridge() {
    Assumptions.assumeFalse(SKIP, "nps.skipOvs=true: the Open vSwitch test is skipped");
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
      long seed = SEED_BASE + seq;
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
        if (mod instanceof GroupMod) { // a flow-mod cannot change groups: one process saved
          assertThat(bridge.dumpGroups())
              .as("OVS groups vs simulated groups; " + context)
              .containsExactlyInAnyOrderElementsOf(sw.groups());
        }
      }
      for (int j = 0; j < PACKETS; j++) {
        RandomOpenFlow.Packet packet = gen.packet(sw);
        long inPort = packet.inPort();
        PacketHeaders h = packet.headers();
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

  /** Every field, flag, action and instruction of the model goes through OVS and back unchanged. */
  @Test
  void syntaxRoundTripsThroughOvs() {
    Match content = Match.builder().ipv6().ipv6Dst("ff0e:c000::/ffff:e000::").build();
    List<GroupEntry> groups =
        List.of(
            GroupEntry.of(
                1,
                GroupType.ALL,
                Bucket.of(new Action.SetIpv6Dst(Ipv6Address.parse("ff0e::1")), Action.output(2)),
                Bucket.of(new Action.SetUdpSrc(7), new Action.SetUdpDst(8), Action.output(3)),
                Bucket.of(
                    new Action.SetIpv6Src(Ipv6Address.parse("2001:db8::9")),
                    Action.output(OfPort.IN_PORT)),
                Bucket.of()),
            GroupEntry.of(
                2,
                GroupType.SELECT,
                Bucket.weighted(3, Action.output(1)),
                Bucket.weighted(0, Action.group(1)),
                Bucket.weighted(1, Action.output(OfPort.CONTROLLER))),
            GroupEntry.of(3, GroupType.INDIRECT, Bucket.of(Action.group(2))),
            GroupEntry.of(
                4,
                GroupType.FF,
                Bucket.watching(4, Action.output(4)),
                new Bucket(0, OfPort.ANY, 3, List.of(Action.output(3))),
                new Bucket(0, 1, 1, List.of(Action.output(1)))));
    List<FlowEntry> flows =
        List.of(
            FlowEntry.builder()
                .priority(100)
                .match(content)
                .apply(new Action.SetIpv6Dst(Ipv6Address.parse("ff0e::1")), Action.output(2))
                .build(),
            FlowEntry.builder()
                .table(0)
                .priority(0)
                .cookie(0x8000000000000001L)
                .idleTimeout(3600)
                .hardTimeout(7200)
                .flags(java.util.EnumSet.allOf(FlowFlag.class))
                .match(Match.builder().inPort(OfPort.LOCAL).ethType(0x0806).build())
                .apply(
                    new Action.Output(OfPort.CONTROLLER, 128),
                    Action.output(OfPort.FLOOD),
                    Action.output(OfPort.ALL),
                    Action.output(OfPort.LOCAL),
                    Action.output(OfPort.IN_PORT))
                .instructions(Instruction.clearActions())
                .write(Action.group(4), Action.output(3))
                .writeMetadata(-1L, -1L)
                .gotoTable(2)
                .build(),
            FlowEntry.builder()
                .table(1)
                .priority(65535)
                .match(
                    Match.builder()
                        .udp6()
                        .inPort(2)
                        .ipv6Src("2001:db8::1/ffff::3")
                        .ipv6Dst("ff0e::/16")
                        .udpSrc(1)
                        .udpDst(65535)
                        .metadata(0x5, 0xff)
                        .build())
                .apply(new Action.SetUdpDst(9), new Action.SetUdpSrc(10), Action.group(3))
                .build(),
            FlowEntry.builder()
                .table(2)
                .priority(3)
                .match(Match.builder().ipv6().ipProto(58).build())
                .build(),
            FlowEntry.builder()
                .table(2)
                .priority(4)
                .match(Match.builder().ipv6().ipProto(6).build())
                .build(),
            FlowEntry.builder()
                .table(2)
                .priority(5)
                .match(
                    Match.builder()
                        .ethType(0x0800)
                        .ipProto(17)
                        .udpDst(5)
                        .metadata(-1L, -1L)
                        .build())
                .write(Action.group(2))
                .build());
    for (GroupEntry g : groups) {
      assertThat(bridge.apply(GroupMod.add(g))).as("%s", g).isEmpty();
    }
    for (FlowEntry f : flows) {
      assertThat(bridge.apply(FlowMod.add(f))).as("%s", f).isEmpty();
    }
    assertThat(bridge.dumpGroups()).containsExactlyInAnyOrderElementsOf(groups);
    assertThat(bridge.dumpFlows()).containsExactlyInAnyOrderElementsOf(flows);
  }

  /**
   * 64 nested groups, and a loop of groups, fail the translation on OVS and in the simulated switch
   * alike; 63 do not.
   */
  @Test
  void groupDepthLimitAndLoopsMatchOvs() {
    SimulatedSwitch sw = newSwitch();
    List<Object> mods = new java.util.ArrayList<>();
    for (long g = 1; g <= 64; g++) {
      mods.add(
          GroupMod.add(
              GroupEntry.of(
                  g, GroupType.ALL, Bucket.of(Action.output(4)), Bucket.of(Action.group(g + 1)))));
    }
    // A loop, linear (one chaining bucket per group): 70 -> 71 -> 70.
    mods.add(
        GroupMod.add(
            GroupEntry.of(
                70, GroupType.ALL, Bucket.of(Action.output(4)), Bucket.of(Action.group(71)))));
    mods.add(GroupMod.add(GroupEntry.of(71, GroupType.INDIRECT, Bucket.of(Action.group(70)))));
    long[][] entryGroupByInPort = {{1, 1}, {2, 2}, {3, 70}};
    for (long[] e : entryGroupByInPort) {
      mods.add(
          FlowMod.add(
              FlowEntry.builder()
                  .priority(1)
                  .match(Match.builder().inPort(e[0]).build())
                  .apply(Action.group(e[1]))
                  .build()));
    }
    for (Object mod : mods) {
      if (mod instanceof GroupMod gm) {
        assertThat(sw.apply(gm)).isEmpty();
        assertThat(bridge.apply(gm)).isEmpty();
      } else {
        assertThat(sw.apply((FlowMod) mod)).isEmpty();
        assertThat(bridge.apply((FlowMod) mod)).isEmpty();
      }
    }
    PacketHeaders p =
        PacketHeaders.udp6(Ipv6Address.parse("::1"), Ipv6Address.parse("ff0e::1"), 1, 2);
    for (long[] e : entryGroupByInPort) {
      Forwarding ovs =
          OvsTraceParser.parse(bridge.trace(e[0], p, 1), p, bridge.datapathToOpenFlow());
      assertThat(sw.forward(e[0], p)).as("in_port %d", e[0]).isEqualTo(ovs);
    }
    assertThat(sw.forward(1, p)).isEqualTo(Forwarding.FAILED);
    assertThat(sw.forward(2, p).ports()).hasSize(63).containsOnly(4L); // groups 2..64
    assertThat(sw.forward(3, p)).isEqualTo(Forwarding.FAILED);
  }

  private static String lines(List<?> items) {
    StringBuilder sb = new StringBuilder();
    items.forEach(i -> sb.append("  ").append(i).append('\n'));
    return sb.toString();
  }
}
