package org.netpubsub.bench.controller;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongConsumer;

/**
 * A cbench-like load generator for a controller's packet-in handling (EMD §5 measures Ryu with
 * cbench): {@code switches} emulated switches (datapath ids 1..N) connect over real OpenFlow 1.3
 * TCP and send packet-ins; any OFPT_PACKET_OUT or OFPT_FLOW_MOD a switch receives counts as a
 * response, as cbench counts them. In {@link Mode#LATENCY} each switch keeps exactly one packet-in
 * outstanding and sends the next when a response arrives, and the round trip from sending a
 * packet-in to its response is measured. In {@link Mode#THROUGHPUT} each switch keeps up to {@code
 * window} packet-ins outstanding, sending one more per response: cbench floods as fast as its
 * socket buffers take, which measures the controller's queues as much as its handling and lets them
 * grow without bound; a window keeps them bounded (at {@code switches × window}) while still
 * keeping the controller busy.
 *
 * <p>A run starts once every switch has received a FEATURES_REQUEST, or with {@code
 * startAfterBarrier} its first BARRIER_REQUEST, which ends netpubsub's controller's handshake (plus
 * an optional {@code startDelay}, cbench's {@code --delay}, for controllers that drop packet-ins
 * before their handshake ends); it lasts {@code warmupRounds + rounds} rounds of {@code
 * roundLength}, reports the responses per second of every measured round and their min/max/mean,
 * and closes every switch. With {@code awaitAnswer}, for controllers known to answer, each measured
 * round lasts until it has seen a response (within the connect timeout), so that short rounds on a
 * loaded machine measure a rate rather than reporting none. Responses before the start are not
 * counted (a table-miss flow-mod sent on connect). A controller that answers a packet-in with
 * several messages (a learning switch: flow-mod and packet-out) earns several responses, as with
 * cbench, and in latency mode then has more than one packet-in in flight; its round-trip times are
 * to the first answer.
 *
 * <p>The emulated switches run on their own event loops ({@code eventLoopThreads}, default 1): the
 * generator should not compete with the controller for cores.
 */
public final class Cbench {
  /** What is measured. */
  public enum Mode {
    /** One packet-in outstanding per switch: round-trip times. */
    LATENCY,
    /** A window of packet-ins outstanding per switch: responses per second under load. */
    THROUGHPUT
  }

  /** Which controller messages answer a packet-in (and count as responses). */
  public enum Answer {
    /** Any packet-out or flow-mod, as cbench counts. */
    ANY,
    /**
     * Packet-outs only: right for controllers that answer every packet-in with exactly one
     * packet-out, flow-mod or not (a learning switch), where counting both would double the rate
     * and time the second message against the next packet-in.
     */
    PACKET_OUT
  }

  /** Ports of each emulated switch (1..PORTS); see {@link EmulatedSwitch#inPort}. */
  public static final int PORTS = 4;

  /** Defaults, cbench's where it has one (-s 16, -m 1000, -l 16, -w 1, -D 0). */
  public static final int DEFAULT_SWITCHES = 16;

  public static final int DEFAULT_WINDOW = 64;
  public static final Duration DEFAULT_ROUND_LENGTH = Duration.ofSeconds(1);
  public static final int DEFAULT_ROUNDS = 16;
  public static final int DEFAULT_WARMUP_ROUNDS = 1;

  /** Hosts per switch of the default frames (cbench's 100 000 would mostly measure MAC tables). */
  public static final int DEFAULT_HOSTS = 1000;

  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);

  private final int switches;
  private final Mode mode;
  private final int window;
  private final Duration roundLength;
  private final int rounds;
  private final int warmupRounds;
  private final FrameSource frames;
  private final Duration startDelay;
  private final Duration connectTimeout;
  private final boolean awaitAnswer;
  private final boolean startAfterBarrier;
  private final int eventLoopThreads;
  private final LongConsumer progress;
  private final Answer answer;

  private Cbench(Builder b) {
    this.switches = b.switches;
    this.mode = b.mode;
    this.window = b.mode == Mode.LATENCY ? 1 : b.window;
    this.answer = b.answer;
    this.roundLength = b.roundLength;
    this.rounds = b.rounds;
    this.warmupRounds = b.warmupRounds;
    this.frames = b.frames != null ? b.frames : FrameSource.ipv6Udp(b.hosts);
    this.startDelay = b.startDelay;
    this.connectTimeout = b.connectTimeout;
    this.awaitAnswer = b.awaitAnswer;
    this.startAfterBarrier = b.startAfterBarrier;
    this.eventLoopThreads = b.eventLoopThreads;
    this.progress = b.progress;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Connects the switches to {@code controller}, runs the rounds and closes the switches. Fails
   * with {@link IllegalStateException} if a switch cannot connect or is sent no FEATURES_REQUEST
   * within the connect timeout, or if the frame source threw.
   */
  public CbenchResult run(InetSocketAddress controller) throws InterruptedException {
    EventLoopGroup group =
        new NioEventLoopGroup(eventLoopThreads, new DefaultThreadFactory("nps-cbench", true));
    EmulatedSwitch.Totals totals = new EmulatedSwitch.Totals();
    List<EmulatedSwitch> emulated = new ArrayList<>(switches);
    try {
      for (int i = 0; i < switches; i++) {
        emulated.add(
            new EmulatedSwitch(i, window, mode == Mode.LATENCY, answer, frames, totals, group));
      }
      awaitReady(controller, emulated);
      if (startDelay.isPositive()) {
        TimeUnit.NANOSECONDS.sleep(startDelay.toNanos()); // cbench's --delay: a fixed wait
      }
      totals.measuring = warmupRounds == 0;
      long start = System.nanoTime();
      emulated.forEach(EmulatedSwitch::start);

      List<Double> rates = new ArrayList<>(rounds);
      long previous = 0;
      long previousAt = start;
      long measuredFrom = 0;
      long measureStart = start;
      for (int r = 0; r < warmupRounds + rounds; r++) {
        long deadline = start + (r + 1) * roundLength.toNanos();
        for (long left = deadline - System.nanoTime(); left > 0; ) {
          TimeUnit.NANOSECONDS.sleep(left); // the round's length: this is what is measured
          left = deadline - System.nanoTime();
        }
        if (awaitAnswer && r >= warmupRounds) {
          awaitAResponse(totals, previous, deadline + connectTimeout.toNanos());
        }
        long now = System.nanoTime();
        long total = totals.responses.sum();
        if (r >= warmupRounds) {
          rates.add((total - previous) / (Math.max(1, now - previousAt) / 1e9));
        }
        if (r == warmupRounds - 1) {
          totals.measuring = true;
          measuredFrom = total;
          measureStart = now;
        }
        previous = total;
        previousAt = now;
        if (progress != null) {
          progress.accept(total);
        }
      }
      totals.measuring = false;
      emulated.forEach(EmulatedSwitch::stop);
      long packetIns = emulated.stream().mapToLong(EmulatedSwitch::sent).sum();
      int disconnected = (int) emulated.stream().filter(e -> !e.isConnected()).count();
      for (EmulatedSwitch e : emulated) {
        if (e.failure() != null) {
          throw new IllegalStateException(
              "the frame source failed for switch " + e.dpid(), e.failure());
        }
      }
      Optional<CbenchResult.Rtt> rtt =
          mode == Mode.LATENCY
              ? Optional.of(
                  new CbenchResult.Rtt(
                      totals.rtt.count(),
                      Duration.ofNanos(totals.rtt.mean()),
                      Duration.ofNanos(totals.rtt.percentile(0.50)),
                      Duration.ofNanos(totals.rtt.percentile(0.99))))
              : Optional.empty();
      return CbenchResult.of(
          mode,
          switches,
          window,
          warmupRounds,
          roundLength,
          rates,
          previous - measuredFrom,
          Duration.ofNanos(previousAt - measureStart),
          packetIns,
          disconnected,
          rtt);
    } finally {
      emulated.forEach(EmulatedSwitch::close);
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }
  }

  /**
   * Extends a measured round until it has seen a response (within the connect timeout): on a loaded
   * machine a short round can pass without the controller's answer, and would report 0 responses/s
   * for a controller that answers. The rate divides by the time the round really took, so it stays
   * true.
   */
  private static void awaitAResponse(EmulatedSwitch.Totals totals, long before, long deadline)
      throws InterruptedException {
    while (totals.responses.sum() == before && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(1);
    }
  }

  /** Connects every switch and waits for each one's FEATURES_REQUEST, within the timeout. */
  private void awaitReady(InetSocketAddress controller, List<EmulatedSwitch> emulated)
      throws InterruptedException {
    long deadline = System.nanoTime() + connectTimeout.toNanos();
    List<CompletableFuture<Void>> connects = new ArrayList<>();
    for (EmulatedSwitch e : emulated) {
      connects.add(e.connect(controller));
    }
    await(connects, deadline, "connected to " + controller, emulated);
    await(
        emulated.stream().map(EmulatedSwitch::featuresRequested).toList(),
        deadline,
        "sent a FEATURES_REQUEST by " + controller,
        emulated);
    if (startAfterBarrier) {
      await(
          emulated.stream().map(EmulatedSwitch::barrierRequested).toList(),
          deadline,
          "sent a BARRIER_REQUEST (its handshake's end) by " + controller,
          emulated);
    }
  }

  private void await(
      List<CompletableFuture<Void>> futures,
      long deadline,
      String what,
      List<EmulatedSwitch> emulated)
      throws InterruptedException {
    try {
      CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
          .get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a switch could not be " + what, e.getCause());
    } catch (TimeoutException e) {
      long late = futures.stream().filter(f -> !f.isDone()).count();
      int firstLate = 0;
      while (firstLate < futures.size() - 1 && futures.get(firstLate).isDone()) {
        firstLate++;
      }
      long first = emulated.get(firstLate).dpid();
      throw new IllegalStateException(
          late
              + " of "
              + futures.size()
              + " switches (the first: dpid "
              + first
              + ") not "
              + what
              + " within "
              + connectTimeout);
    }
  }

  /** Configures a {@link Cbench}; defaults in the constants above. */
  public static final class Builder {
    private int switches = DEFAULT_SWITCHES;
    private Mode mode = Mode.LATENCY;
    private int window = DEFAULT_WINDOW;
    private Duration roundLength = DEFAULT_ROUND_LENGTH;
    private int rounds = DEFAULT_ROUNDS;
    private int warmupRounds = DEFAULT_WARMUP_ROUNDS;
    private int hosts = DEFAULT_HOSTS;
    private FrameSource frames;
    private Duration startDelay = Duration.ZERO;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private int eventLoopThreads = 1;
    private LongConsumer progress;
    private Answer answer = Answer.ANY;
    private boolean awaitAnswer;
    private boolean startAfterBarrier;

    private Builder() {}

    /**
     * For a controller that answers every packet-in: each measured round lasts until a response has
     * arrived in it, within the connect timeout (default false: rounds end on time).
     */
    public Builder awaitAnswer(boolean on) {
      this.awaitAnswer = on;
      return this;
    }

    /**
     * For netpubsub's controller, which ends its handshake with a BARRIER_REQUEST: the switches
     * start once it has come (default false: at the FEATURES_REQUEST, as cbench). That controller
     * holds earlier packet-ins until its handshake ends, and drops them if the switch leaves first,
     * as a short run on a loaded machine can.
     */
    public Builder startAfterBarrier(boolean on) {
      this.startAfterBarrier = on;
      return this;
    }

    /** Which messages answer a packet-in (default ANY). */
    public Builder answer(Answer a) {
      this.answer = java.util.Objects.requireNonNull(a);
      return this;
    }

    /** Emulated switches, datapath ids 1..n (default 16). */
    public Builder switches(int n) {
      switches = n;
      return this;
    }

    /** Default {@link Mode#LATENCY}, as cbench's. */
    public Builder mode(Mode m) {
      mode = m;
      return this;
    }

    /** Packet-ins outstanding per switch in throughput mode (default 64; latency mode: 1). */
    public Builder window(int w) {
      window = w;
      return this;
    }

    /** The length of a round (default 1 s, cbench's -m 1000). */
    public Builder roundLength(Duration d) {
      roundLength = d;
      return this;
    }

    /** Measured rounds (default 16, cbench's -l). */
    public Builder rounds(int n) {
      rounds = n;
      return this;
    }

    /** Rounds run first and not measured (default 1, cbench's -w). */
    public Builder warmupRounds(int n) {
      warmupRounds = n;
      return this;
    }

    /**
     * Hosts behind each switch in the default frames, cbench's {@code --mac-addresses} (default
     * 1000); ignored with a {@link #frameSource}.
     */
    public Builder hosts(int n) {
      hosts = n;
      return this;
    }

    /** The packet-ins' frames (default {@link FrameSource#ipv6Udp} of {@link #hosts}). */
    public Builder frameSource(FrameSource f) {
      frames = f;
      return this;
    }

    /** A wait between the last FEATURES_REQUEST and the first packet-in (default 0). */
    public Builder startDelay(Duration d) {
      startDelay = d;
      return this;
    }

    /** How long the switches may take to connect and be asked for features (default 10 s). */
    public Builder connectTimeout(Duration d) {
      connectTimeout = d;
      return this;
    }

    /** Event-loop threads the emulated switches share (default 1). */
    public Builder eventLoopThreads(int n) {
      eventLoopThreads = n;
      return this;
    }

    /** Told after every round (warm-up too) of the responses so far; on the calling thread. */
    public Builder progress(LongConsumer p) {
      progress = p;
      return this;
    }

    public Cbench build() {
      require(switches >= 1 && switches <= FrameSource.MAX_SWITCHES, "switches in 1..65536");
      require(mode != null, "a mode");
      require(window >= 1, "a window of at least 1");
      require(roundLength != null && roundLength.isPositive(), "a positive round length");
      require(rounds >= 1, "at least one measured round");
      require(warmupRounds >= 0, "no negative warm-up rounds");
      require(hosts >= 1 && hosts <= FrameSource.MAX_HOSTS, "hosts in 1.." + FrameSource.MAX_HOSTS);
      require(startDelay != null && !startDelay.isNegative(), "no negative start delay");
      require(connectTimeout != null && connectTimeout.isPositive(), "a positive connect timeout");
      require(eventLoopThreads >= 1, "at least one event-loop thread");
      return new Cbench(this);
    }

    private static void require(boolean ok, String what) {
      if (!ok) {
        throw new IllegalArgumentException("cbench needs " + what);
      }
    }
  }
}
