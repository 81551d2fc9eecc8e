package org.netpubsub.compiler.itch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.netpubsub.compiler.Compilation;
import org.netpubsub.compiler.CompileOptions;
import org.netpubsub.compiler.RuleCompiler;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.compiler.rules.RuleParser;
import org.netpubsub.compiler.spec.BuiltinSpecs;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.compiler.target.software.SoftwarePipeline;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.workload.Arrival;
import org.netpubsub.content.workload.HostAssignment;
import org.netpubsub.content.workload.ItchModel;
import org.netpubsub.content.workload.Subscription;
import org.netpubsub.content.workload.WorkloadSpec;

/**
 * The splitter against its naive twin: per message, the ports the software pipeline (and direct
 * filter evaluation) give, and the message's own sequence number.
 */
class PortSplitterProperties {
  static final MessageSpec ITCH = BuiltinSpecs.itch();
  static final byte[] SESSION = MoldUdp64.session("SPLIT");

  static PortSplitter splitter(String rules) {
    return PortSplitter.of(
        RuleCompiler.compile(ITCH, RuleParser.parse(ITCH.schema(), rules), CompileOptions.EXACT)
            .pipeline(),
        OtherMessages.DROP);
  }

  @Property(tries = 80)
  void randomPacketsSplitIntoThePipelinesPorts(
      @ForAll("rules") List<Rule> rules,
      @ForAll("packets") List<List<byte[]>> packets,
      @ForAll OtherMessages others,
      @ForAll long firstSequence) {
    List<byte[]> encoded = new ArrayList<>();
    long seq = firstSequence;
    for (List<byte[]> p : packets) {
      encoded.add(MoldUdp64.encode(SESSION, seq, p));
      seq += p.size();
    }
    encoded.add(MoldUdp64.heartbeat(SESSION, seq));
    checkSplit(rules, encoded, others);
  }

  @Property(tries = 40)
  void syntheticFeedsSplitIntoThePipelinesPorts(
      @ForAll("rules") List<Rule> rules,
      @ForAll ItchModel.Variant variant,
      @ForAll long seed,
      @ForAll @IntRange(min = 0, max = 3000) int messages,
      @ForAll @IntRange(min = 1, max = 120) int perPacket,
      @ForAll @IntRange(min = MoldBatcher.MIN_PAYLOAD, max = 9000) int payload,
      @ForAll OtherMessages others,
      @ForAll @LongRange(min = 1, max = Long.MAX_VALUE) long firstSequence) {
    List<byte[]> packets = new ArrayList<>();
    MoldBatcher batcher =
        new MoldBatcher(
            SESSION,
            firstSequence,
            perPacket,
            payload,
            (b, off, len) -> packets.add(Arrays.copyOfRange(b, off, off + len)));
    ItchFeedGenerator feed = new ItchFeedGenerator(variant, seed, messages);
    byte[] m = new byte[ItchMessageTypes.MAX_LENGTH];
    while (feed.hasNext()) {
      batcher.add(m, 0, feed.next(m, 0));
    }
    batcher.endOfSession();
    for (byte[] p : packets) {
      assertThat(p.length).isLessThanOrEqualTo(payload);
    }
    checkSplit(rules, packets, others);
  }

  /** Splits every packet and compares what each port got with the pipeline, message by message. */
  static void checkSplit(List<Rule> rules, List<byte[]> packets, OtherMessages others) {
    Compilation c = RuleCompiler.compile(ITCH, rules, CompileOptions.EXACT);
    SoftwarePipeline sw = SoftwarePipeline.of(c.pipeline());
    PortSplitter splitter = PortSplitter.of(c.pipeline(), others);
    int[] allPorts = splitter.ports();
    Map<Long, byte[]> original = new HashMap<>();
    Map<Long, TreeSet<Integer>> delivered = new HashMap<>();
    Map<Long, Integer> packetOf = new HashMap<>();
    long expectedDeliveries = 0;
    long expectedDrops = 0;
    MoldPacket parsed = new MoldPacket();
    int controls = 0;
    Map<Integer, long[]> emitted = new HashMap<>(); // port → packets, bytes, messages
    for (int k = 0; k < packets.size(); k++) {
      byte[] bytes = packets.get(k);
      assertThat(parsed.parse(bytes, 0, bytes.length)).isTrue();
      for (int i = 0; i < parsed.messages(); i++) {
        long s = parsed.sequenceOf(i);
        original.put(
            s,
            Arrays.copyOfRange(
                bytes, parsed.messageOffset(i), parsed.messageOffset(i) + parsed.messageLength(i)));
        packetOf.put(s, k);
      }
      boolean control = parsed.isHeartbeat() || parsed.isEndOfSession();
      controls += control ? 1 : 0;
      int packetIndex = k;
      assertThat(splitter.split(bytes, 0, bytes.length)).isTrue();
      List<Integer> portsOfControl = new ArrayList<>();
      splitter.emit(
          (port, b, off, len) -> {
            MoldPacket out = new MoldPacket();
            assertThat(out.parse(b, off, len)).isTrue();
            long[] e = emitted.computeIfAbsent(port, x -> new long[3]);
            e[0]++;
            e[1] += len;
            e[2] += out.messages();
            assertThat(Arrays.copyOfRange(b, off, off + 10)).isEqualTo(SESSION);
            if (control) {
              assertThat(Arrays.copyOfRange(b, off, off + len)).isEqualTo(bytes);
              portsOfControl.add(port);
              return;
            }
            assertThat(out.messages()).isPositive();
            for (int i = 0; i < out.messages(); i++) {
              long s = out.sequenceOf(i);
              assertThat(packetOf.get(s)).as("seq %d from this packet", s).isEqualTo(packetIndex);
              assertThat(
                      Arrays.copyOfRange(
                          b, out.messageOffset(i), out.messageOffset(i) + out.messageLength(i)))
                  .isEqualTo(original.get(s));
              assertThat(delivered.computeIfAbsent(s, x -> new TreeSet<>()).add(port))
                  .as("port %d gets seq %d once", port, s)
                  .isTrue();
            }
          });
      if (control) {
        assertThat(portsOfControl)
            .containsExactly(Arrays.stream(allPorts).boxed().toArray(Integer[]::new));
      }
      // runs are maximal: the messages around a run are not the port's
      for (int r = 0; r < splitter.runs() && !control; r++) {
        int port = splitter.runPort(r);
        long before = splitter.runSequence(r) - 1;
        long after = splitter.runSequence(r) + splitter.runMessages(r);
        for (long s : new long[] {before, after}) {
          if (packetOf.containsKey(s) && packetOf.get(s) == packetIndex) {
            assertThat(expected(original.get(s), sw, others, allPorts)).doesNotContain(port);
          }
        }
      }
    }
    for (var e : original.entrySet()) {
      TreeSet<Integer> want = expected(e.getValue(), sw, others, allPorts);
      assertThat(delivered.getOrDefault(e.getKey(), new TreeSet<>()))
          .as("ports of seq %d", e.getKey())
          .isEqualTo(want);
      expectedDeliveries += want.size();
      expectedDrops += want.isEmpty() ? 1 : 0;
      truthAgrees(rules, e.getValue(), want, others);
    }
    long deliveries = IntStream.range(0, allPorts.length).mapToLong(splitter::portMessages).sum();
    assertThat(deliveries).isEqualTo(expectedDeliveries);
    assertThat(splitter.droppedMessages()).isEqualTo(expectedDrops);
    assertThat(splitter.messages()).isEqualTo(original.size());
    assertThat(splitter.controlPackets()).isEqualTo(controls);
  }

  /** The ports a message must reach, from the software pipeline. */
  static TreeSet<Integer> expected(
      byte[] m, SoftwarePipeline sw, OtherMessages others, int[] allPorts) {
    TreeSet<Integer> out = new TreeSet<>();
    if (m.length == 0) {
      return out;
    }
    if (ItchMessageTypes.isAddOrder(m[0])) {
      long[] v = new long[4];
      if (AddOrders.decode(m, 0, m.length, v) == null) {
        Arrays.stream(sw.actions(v)).forEach(out::add);
      }
      return out;
    }
    int len = ItchMessageTypes.length(m[0]);
    if ((len < 0 || len == m.length) && others == OtherMessages.ALL_PORTS) {
      Arrays.stream(allPorts).forEach(out::add);
    }
    return out;
  }

  /**
   * Direct filter evaluation of the decoded Add Order gives the same ports (ITCH rules are exact).
   */
  static void truthAgrees(List<Rule> rules, byte[] m, TreeSet<Integer> ports, OtherMessages o) {
    if (m.length == 0 || !ItchMessageTypes.isAddOrder(m[0])) {
      return;
    }
    long[] v = new long[4];
    if (AddOrders.decode(m, 0, m.length, v) != null) {
      assertThat(ports).isEmpty();
      return;
    }
    Event e = AddOrders.toEvent(ITCH.schema(), v);
    TreeSet<Integer> truth = new TreeSet<>();
    for (Rule r : rules) {
      if (FilterEvaluator.matches(r.dnf(), e)) {
        Arrays.stream(r.ports()).forEach(truth::add);
      }
    }
    assertThat(ports).isEqualTo(truth);
  }

  @Provide
  Arbitrary<List<Rule>> rules() {
    return Combinators.combine(
            Arbitraries.of(ItchModel.Variant.values()),
            Arbitraries.longs(),
            Arbitraries.integers().between(0, 60),
            Arbitraries.of(1, 3, 64, 65, 150),
            Arbitraries.integers().between(0, 3))
        .as(PortSplitterProperties::itchRules);
  }

  /** Rules of the ITCH model, and sometimes one that sends most messages to every port. */
  static List<Rule> itchRules(
      ItchModel.Variant variant, long seed, int count, int hosts, int broadcast) {
    List<Subscription> subs =
        new ItchModel(variant)
            .generate(new WorkloadSpec(seed, count, 0, hosts, HostAssignment.RANDOM, Arrival.NONE))
            .subscriptions();
    List<Rule> out = new ArrayList<>();
    for (Subscription s : subs) {
      out.add(rule("r" + out.size(), s.filter(), s.ports().stream().mapToInt(i -> i).toArray()));
    }
    if (broadcast == 0) {
      out.add(rule("all", "price > 1000000", IntStream.rangeClosed(1, hosts).toArray()));
    }
    return out;
  }

  static Rule rule(String id, String filter, int[] ports) {
    return new Rule(id, filter, Normalizer.toDnf(FilterParser.parse(ITCH.schema(), filter)), ports);
  }

  @Provide
  Arbitrary<List<List<byte[]>>> packets() {
    return ItchArbitraries.messageLists(100).list().ofMinSize(1).ofMaxSize(6);
  }
}
