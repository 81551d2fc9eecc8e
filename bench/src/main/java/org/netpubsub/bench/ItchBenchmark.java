package org.netpubsub.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.netpubsub.compiler.Compilation;
import org.netpubsub.compiler.CompileOptions;
import org.netpubsub.compiler.RuleCompiler;
import org.netpubsub.compiler.itch.AddOrders;
import org.netpubsub.compiler.itch.ItchFeedGenerator;
import org.netpubsub.compiler.itch.ItchMessageTypes;
import org.netpubsub.compiler.itch.MoldBatcher;
import org.netpubsub.compiler.itch.MoldPacket;
import org.netpubsub.compiler.itch.MoldUdp64;
import org.netpubsub.compiler.itch.OtherMessages;
import org.netpubsub.compiler.itch.PortSplitter;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.compiler.spec.BuiltinSpecs;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.compiler.target.software.SoftwarePipeline;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.workload.Arrival;
import org.netpubsub.content.workload.HostAssignment;
import org.netpubsub.content.workload.ItchModel;
import org.netpubsub.content.workload.Subscription;
import org.netpubsub.content.workload.WorkloadSpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The ITCH software path per message (Camus §7.1 on a CPU): MoldUDP64 framing, Add Order decoding,
 * the compiled tables and the per-port split, at 1K, 10K and 100K filters of Camus's simple model
 * ({@code stock == S && price > P : fwd(H)}, 100 symbols, 200 ports); against a naive linear
 * matcher that decodes each Add Order into an event and evaluates every filter on it. Scores are
 * messages per second (one operation = one message), so the two compare as a ratio.
 *
 * <p>Feeds: {@code split*} run packets of Add Orders only (the costly case: every message reaches
 * the tables), batched as a publisher does (1452-byte payloads: MTU 1500 less IPv6 and UDP, about
 * 37 messages per packet); {@code splitFeed} runs the synthetic feed, where half of the messages
 * are order-book updates skipped by length.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class ItchBenchmark {
  /** Messages per invocation of the split benchmarks. */
  static final int MESSAGES = 1 << 16;

  /** Messages per invocation of the naive matcher (100K filters × this many evaluations). */
  static final int NAIVE_MESSAGES = 64;

  static final int PAYLOAD = 1452;

  @Param({"1000", "10000", "100000"})
  public int filters;

  private final MessageSpec spec = BuiltinSpecs.itch();
  private PortSplitter splitter;
  private SoftwarePipeline tables;
  private final MoldPacket packet = new MoldPacket();
  private byte[][] addOrderPackets;
  private byte[][] feedPackets;
  private byte[][] naiveMessages;
  private Dnf[] dnfs;
  private int[][] ports;
  private final long[] values = new long[AddOrders.FIELDS];
  private final boolean[] hit = new boolean[ItchModel.DEFAULT_HOSTS + 1];
  private long emitted;

  @Setup
  public void setUp() {
    ItchModel model = new ItchModel(ItchModel.Variant.SIMPLE);
    List<Subscription> subs =
        model
            .generate(
                new WorkloadSpec(
                    1, filters, 0, ItchModel.DEFAULT_HOSTS, HostAssignment.RANDOM, Arrival.NONE))
            .subscriptions();
    List<Rule> rules = new ArrayList<>(subs.size());
    dnfs = new Dnf[subs.size()];
    ports = new int[subs.size()][];
    for (int i = 0; i < subs.size(); i++) {
      Subscription s = subs.get(i);
      dnfs[i] = Normalizer.toDnf(FilterParser.parse(spec.schema(), s.filter()));
      ports[i] = s.ports().stream().mapToInt(Integer::intValue).toArray();
      rules.add(new Rule("r" + i, s.filter(), dnfs[i], ports[i]));
    }
    Compilation c = RuleCompiler.compile(spec, rules, CompileOptions.EXACT);
    splitter = PortSplitter.of(c.pipeline(), OtherMessages.DROP);
    tables = SoftwarePipeline.of(c.pipeline());
    addOrderPackets = packets(ItchModel.Variant.SIMPLE, true);
    feedPackets = packets(ItchModel.Variant.SIMPLE, false);
    naiveMessages = new byte[NAIVE_MESSAGES][];
    MoldPacket p = new MoldPacket();
    int n = 0;
    for (byte[] packet : addOrderPackets) {
      p.parse(packet, 0, packet.length);
      for (int i = 0; i < p.messages() && n < NAIVE_MESSAGES; i++) {
        naiveMessages[n++] =
            Arrays.copyOfRange(packet, p.messageOffset(i), p.messageOffset(i) + p.messageLength(i));
      }
    }
  }

  /** {@link #MESSAGES} messages of the synthetic feed (or only its Add Orders), in packets. */
  private static byte[][] packets(ItchModel.Variant variant, boolean addOrdersOnly) {
    List<byte[]> out = new ArrayList<>();
    MoldBatcher b =
        new MoldBatcher(
            MoldUdp64.session("BENCH"),
            1,
            MoldUdp64.MAX_COUNT,
            PAYLOAD,
            (buf, off, len) -> out.add(Arrays.copyOfRange(buf, off, off + len)));
    ItchFeedGenerator feed = new ItchFeedGenerator(variant, 42, 4L * MESSAGES);
    byte[] m = new byte[ItchMessageTypes.MAX_LENGTH];
    int n = 0;
    while (n < MESSAGES) {
      int len = feed.next(m, 0);
      if (!addOrdersOnly || ItchMessageTypes.isAddOrder(m[0])) {
        b.add(m, 0, len);
        n++;
      }
    }
    b.flush();
    return out.toArray(byte[][]::new);
  }

  /** Stage 1: framing and Add Order decoding alone. */
  @Benchmark
  @OperationsPerInvocation(MESSAGES)
  public long decode(CpuMeter cpu) {
    cpu.invocations++;
    long sum = 0;
    for (byte[] p : addOrderPackets) {
      packet.parse(p, 0, p.length);
      for (int i = 0, n = packet.messages(); i < n; i++) {
        AddOrders.decode(p, packet.messageOffset(i), packet.messageLength(i), values);
        sum += values[AddOrders.PRICE_FIELD];
      }
    }
    return sum;
  }

  /** Stage 2: framing, decoding and the compiled tables (the group of each message). */
  @Benchmark
  @OperationsPerInvocation(MESSAGES)
  public long decodeAndTables(CpuMeter cpu) {
    cpu.invocations++;
    long sum = 0;
    for (byte[] p : addOrderPackets) {
      packet.parse(p, 0, p.length);
      for (int i = 0, n = packet.messages(); i < n; i++) {
        AddOrders.decode(p, packet.messageOffset(i), packet.messageLength(i), values);
        sum += tables.group(values);
      }
    }
    return sum;
  }

  /**
   * Framing, decoding, tables and the split decision: each message's port set and the per-port
   * counts (messages, packets, bytes) kept up to date, Add Orders only. The packets themselves are
   * cut on demand ({@link #splitAndWrite}).
   */
  @Benchmark
  @OperationsPerInvocation(MESSAGES)
  public long split(CpuMeter cpu) {
    cpu.invocations++;
    return splitAll(addOrderPackets);
  }

  /**
   * As {@link #split}, and every port's packets enumerated and written out (header + copied
   * blocks): the replication a switch does in its crossbar and egress.
   */
  @Benchmark
  @OperationsPerInvocation(MESSAGES)
  public long splitAndWrite(CpuMeter cpu) {
    cpu.invocations++;
    emitted = 0;
    for (byte[] p : addOrderPackets) {
      splitter.split(p, 0, p.length);
      splitter.emit((port, buf, off, len) -> emitted += len);
    }
    return emitted;
  }

  /** As {@link #split}, on the mixed synthetic feed (half Add Orders). */
  @Benchmark
  @OperationsPerInvocation(MESSAGES)
  public long splitFeed(CpuMeter cpu) {
    cpu.invocations++;
    return splitAll(feedPackets);
  }

  /** Splits every packet; the count split plus the messages dropped, so nothing is dead code. */
  private long splitAll(byte[][] packets) {
    long ok = 0;
    for (byte[] p : packets) {
      ok += splitter.split(p, 0, p.length) ? 1 : 0;
    }
    return ok + splitter.droppedMessages();
  }

  /** The naive twin: decode each Add Order into an event, evaluate every filter, collect ports. */
  @Benchmark
  @OperationsPerInvocation(NAIVE_MESSAGES)
  public int naiveLinear(CpuMeter cpu) {
    cpu.invocations++;
    int delivered = 0;
    for (byte[] m : naiveMessages) {
      AddOrders.decode(m, 0, m.length, values);
      Event e = AddOrders.toEvent(spec.schema(), values);
      Arrays.fill(hit, false);
      for (int r = 0; r < dnfs.length; r++) {
        if (FilterEvaluator.matches(dnfs[r], e)) {
          for (int port : ports[r]) {
            hit[port] = true;
          }
        }
      }
      for (boolean h : hit) {
        delivered += h ? 1 : 0;
      }
    }
    return delivered;
  }

  /** Messages per CPU second of the benchmark thread, per measurement iteration. */
  @State(Scope.Thread)
  public static class CpuMeter {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    long invocations;
    private long start;

    @Setup(Level.Iteration)
    public void start() {
      invocations = 0;
      start = THREADS.getCurrentThreadCpuTime();
    }

    @TearDown(Level.Iteration)
    public void stop(BenchmarkParams params) {
      double seconds = (THREADS.getCurrentThreadCpuTime() - start) / 1e9;
      double messages = (double) invocations * params.getOpsPerInvocation();
      System.out.printf(
          "%n[cpu] %s %s: %,.0f messages per CPU second%n",
          params.getBenchmark().replaceAll(".*\\.", ""),
          params.getParam("filters"),
          messages / seconds);
    }
  }
}
