package org.netpubsub.controller.sim;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.Closeable;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.netpubsub.controller.southbound.OpenFlowFrameDecoder;
import org.netpubsub.controller.southbound.OpenFlowMessageEncoder;
import org.netpubsub.controller.southbound.PortCounters;
import org.netpubsub.controller.southbound.PortInfo;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.FlowRemoved;
import org.netpubsub.network.openflow.Forwarding;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.openflow.OpenFlowError;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.openflow.SimulatedSwitch;

/**
 * An OpenFlow 1.3 switch over TCP that behaves like Open vSwitch (fail-mode secure): a Netty client
 * that connects to a controller, answers the handshake (HELLO, FEATURES with its datapath id,
 * PORT_DESC, SET_CONFIG), echoes, applies flow-mods and group-mods to nps-network's {@link
 * SimulatedSwitch} (refusals answered with OFPT_ERROR carrying the request's xid and bytes),
 * answers barriers in order, flow-stats and group-desc requests (in parts of {@code
 * statsPartSize}), sends PORT_STATUS when told a port changed, and records packet-outs. A
 * per-update latency delays every later answer without sleeping; {@link FaultMode}s and {@link
 * #sendRaw} make it misbehave. A {@link ControllerMessageListener} hears of arriving messages; a
 * load generator turns recording and the table off ({@link Builder#recordReceived}, {@link
 * Builder#applyMods}). Thread-safe: the table is guarded by this object's lock.
 */
public final class SimulatedOpenFlowSwitch implements Closeable {
  /** Not an OpenFlow frame: the length field (2) is shorter than the header. */
  public static final byte[] GARBAGE = {4, 0, 0, 2, 0x13, 0x37, 0x13, 0x37, 0, 0, 0, 0};

  /** An OpenFlow 1.3 header of a type that does not exist (0xfa): unparsable. */
  public static final byte[] UNPARSABLE = {4, (byte) 0xfa, 0, 8, 0, 0, 0, 1};

  private static final System.Logger LOG =
      System.getLogger(SimulatedOpenFlowSwitch.class.getName());

  private static volatile EventLoopGroup shared;

  final long dpid;
  final int numTables;
  final int statsPartSize;
  final Duration updateLatency;
  final boolean applyMods;
  private final java.util.Map<Long, PortInfo> ports = new java.util.LinkedHashMap<>();
  private final java.util.Map<Long, PortCounters> counters = new java.util.HashMap<>();
  private final SimulatedSwitch table;
  private final EventLoopGroup group;
  private final Consumer<PacketOutRecord> packetOutHook;
  private final ControllerMessageListener listener;
  private final boolean record;

  /** Guarded by this object's lock (a copy-on-write list would make every update O(n)). */
  private final List<SwitchMod> received = new ArrayList<>();

  private final List<PacketOutRecord> packetOuts = new CopyOnWriteArrayList<>();
  private volatile FaultMode fault;
  private volatile Channel channel;
  private volatile SimSwitchHandler handler;
  private volatile int barriers;
  private volatile int missSendLen = -1;

  private SimulatedOpenFlowSwitch(Builder b) {
    this.dpid = b.dpid;
    this.numTables = b.numTables;
    this.statsPartSize = b.statsPartSize;
    this.updateLatency = b.updateLatency;
    b.ports.forEach(p -> ports.put(p.number(), p));
    this.fault = b.fault;
    this.packetOutHook = b.packetOutHook;
    this.listener = b.listener;
    this.record = b.recordReceived;
    this.applyMods = b.applyMods;
    this.group = b.group != null ? b.group : sharedGroup();
    SimulatedSwitch.Builder sb = SimulatedSwitch.builder().numTables(b.numTables);
    for (PortInfo p : ports.values()) {
      sb.ports(p.number());
    }
    this.table = sb.build();
    for (PortInfo p : ports.values()) {
      table.setPortLive(p.number(), p.up());
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A daemon event-loop group shared by simulated switches that are not given one. */
  private static EventLoopGroup sharedGroup() {
    if (shared == null) {
      synchronized (SimulatedOpenFlowSwitch.class) {
        if (shared == null) {
          shared = new NioEventLoopGroup(2, new DefaultThreadFactory("nps-sim-switch", true));
        }
      }
    }
    return shared;
  }

  /** Connects to a controller; completes when the TCP connection is up (not the handshake). */
  public CompletableFuture<Void> connect(InetSocketAddress controller) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    SimSwitchHandler h = new SimSwitchHandler(this);
    new Bootstrap()
        .group(group)
        .channel(NioSocketChannel.class)
        .option(ChannelOption.TCP_NODELAY, true)
        .handler(
            new ChannelInitializer<SocketChannel>() {
              @Override
              protected void initChannel(SocketChannel ch) {
                ch.pipeline()
                    .addLast(new OpenFlowFrameDecoder(OpenFlowFrameDecoder.MAX_FRAME))
                    .addLast(OpenFlowMessageEncoder.INSTANCE)
                    .addLast(h);
              }
            })
        .connect(controller)
        .addListener(
            f -> {
              if (f.isSuccess()) {
                handler = h;
                channel = ((io.netty.channel.ChannelFuture) f).channel();
                h.active().thenRun(() -> done.complete(null));
                channel
                    .closeFuture()
                    .addListener(
                        c -> done.completeExceptionally(new IllegalStateException("closed")));
              } else {
                done.completeExceptionally(f.cause());
              }
            });
    return done;
  }

  /** True while the TCP connection is open. */
  public boolean isConnected() {
    Channel c = channel;
    return c != null && c.isActive();
  }

  /** Closes the connection; the tables stay, so the switch can {@link #connect} again. */
  public void disconnect() {
    Channel c = channel;
    if (c != null) {
      c.close().syncUninterruptibly();
    }
  }

  @Override
  public void close() {
    disconnect();
  }

  public long dpid() {
    return dpid;
  }

  /** The ports with their current state. */
  public synchronized List<PortInfo> ports() {
    return List.copyOf(ports.values());
  }

  /**
   * Every port's counters: as last set by {@link #setPortCounters}, else zero; and, as Open vSwitch
   * reports it, the LOCAL port's.
   */
  public synchronized List<PortCounters> portCounters() {
    List<PortCounters> out = new ArrayList<>();
    for (long port : ports.keySet()) {
      out.add(counters.getOrDefault(port, new PortCounters(port, 0, 0, 0, 0)));
    }
    out.add(new PortCounters(OfPort.LOCAL, 0, 0, 0, 0));
    return out;
  }

  /** Sets what port-stats replies report for one port (the simulation forwards no traffic). */
  public synchronized void setPortCounters(PortCounters c) {
    if (!ports.containsKey(c.port())) {
      throw new IllegalArgumentException("no port " + c.port());
    }
    counters.put(c.port(), c);
  }

  /** Marks a port up or down and, if connected, sends PORT_STATUS (MODIFY). */
  public void setPortUp(long port, boolean up) {
    PortInfo p;
    synchronized (this) {
      PortInfo old = ports.get(port);
      if (old == null) {
        throw new IllegalArgumentException("no port " + port);
      }
      p = old.withUp(up);
      ports.put(port, p);
      table.setPortLive(port, up);
    }
    SimSwitchHandler h = handler;
    if (h != null && isConnected()) {
      h.portStatus(p);
    }
  }

  /** Sends a packet-in (reason ACTION) of a whole frame, as if a flow sent it to the controller. */
  public void sendPacketIn(long inPort, int tableId, long cookie, byte[] frame) {
    SimSwitchHandler h = handler;
    if (h == null || !isConnected()) {
      throw new IllegalStateException("not connected");
    }
    h.packetIn(inPort, tableId, cookie, frame);
  }

  /** Writes raw bytes to the controller (garbage, a frame of another version...). */
  public void sendRaw(byte[] bytes) {
    Channel c = channel;
    if (c == null) {
      throw new IllegalStateException("not connected");
    }
    c.writeAndFlush(Unpooled.wrappedBuffer(bytes.clone()));
  }

  public void setFault(FaultMode mode) {
    fault = mode;
  }

  public FaultMode fault() {
    return fault;
  }

  /** Applies a flow-mod directly to the table (no message): to give the switch a prior state. */
  public synchronized Optional<OpenFlowError> install(FlowMod fm) {
    return table.apply(fm);
  }

  public synchronized Optional<OpenFlowError> install(GroupMod gm) {
    return table.apply(gm);
  }

  /** The flows, as a flow-stats reply lists them. */
  public synchronized List<FlowEntry> flows() {
    return table.flows();
  }

  /** The flows with their packet counters, in {@link #flows}'s order (a flow-stats reply). */
  public synchronized List<org.netpubsub.network.openflow.FlowStats> flowStats() {
    return table.flowStats();
  }

  /**
   * Runs a packet through the tables as the switch forwards it (counters move): the local network's
   * data plane.
   */
  public synchronized Forwarding process(long inPort, PacketHeaders headers) {
    return table.process(inPort, headers);
  }

  public synchronized List<GroupEntry> groups() {
    return table.groups();
  }

  /**
   * Every flow-mod and group-mod received over the connection(s), in order (none if built with
   * {@code recordReceived(false)} or {@code applyMods(false)}).
   */
  public synchronized List<SwitchMod> receivedMods() {
    return List.copyOf(received);
  }

  public synchronized void clearReceived() {
    received.clear();
  }

  public int barriersReceived() {
    return barriers;
  }

  /** The miss_send_len of the last SET_CONFIG (-1 before any). */
  public int missSendLen() {
    return missSendLen;
  }

  /** Every packet-out received, in order (none if built with {@code recordReceived(false)}). */
  public List<PacketOutRecord> packetOuts() {
    return List.copyOf(packetOuts);
  }

  // ---- called by the handler (event loop) ----

  /** Applies a received mod; flow-removed messages it caused are added to {@code removed}. */
  synchronized Optional<OpenFlowError> receive(SwitchMod mod, List<FlowRemoved> removed) {
    if (record) {
      received.add(mod);
    }
    Optional<OpenFlowError> e =
        switch (mod) {
          case SwitchMod.Flow f -> table.apply(f.mod());
          case SwitchMod.Group g -> table.apply(g.mod());
        };
    removed.addAll(table.drainFlowRemoved());
    return e;
  }

  void barrierReceived() {
    barriers++;
  }

  void configReceived(int missSendLength) {
    missSendLen = missSendLength;
  }

  /** True if a packet-out must be turned into a {@link PacketOutRecord} (recorded or hooked). */
  boolean wantsPacketOuts() {
    return record || packetOutHook != null;
  }

  void packetOutReceived(PacketOutRecord r) {
    if (record) {
      packetOuts.add(r);
    }
    if (packetOutHook != null) {
      packetOutHook.accept(r);
    }
  }

  /** Tells the listener, if any; its failure is logged, never the switch's. */
  void tell(Consumer<ControllerMessageListener> call) {
    if (listener != null) {
      try {
        call.accept(listener);
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "sim " + dpid + ": message listener failed", e);
      }
    }
  }

  /** Configures a simulated switch; defaults: dpid 1, ports 1-4 up, 254 tables, no latency. */
  public static final class Builder {
    private long dpid = 1;
    private final List<PortInfo> ports = new ArrayList<>();
    private int numTables = 254;
    private int statsPartSize = 100;
    private Duration updateLatency = Duration.ZERO;
    private FaultMode fault = FaultMode.NONE;
    private EventLoopGroup group;
    private Consumer<PacketOutRecord> packetOutHook;
    private ControllerMessageListener listener;
    private boolean recordReceived = true;
    private boolean applyMods = true;

    private Builder() {}

    public Builder dpid(long id) {
      dpid = id;
      return this;
    }

    /** Physical ports (up), named {@code sim<dpid>-eth<n>}, MAC 02:dpid:n. */
    public Builder ports(long... numbers) {
      for (long n : numbers) {
        long mac = 0x0200_0000_0000L | (dpid & 0xffffff) << 16 | (n & 0xffff);
        port(new PortInfo(n, "sim" + dpid + "-eth" + n, mac, true));
      }
      return this;
    }

    public Builder port(PortInfo p) {
      ports.add(p);
      return this;
    }

    public Builder numTables(int n) {
      numTables = n;
      return this;
    }

    /** Flow entries per part of a multipart reply (REPLY_MORE on all but the last). */
    public Builder statsPartSize(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("at least one entry per part");
      }
      statsPartSize = n;
      return this;
    }

    /** How long the switch takes per flow-mod or group-mod (later answers wait). */
    public Builder updateLatency(Duration d) {
      updateLatency = d;
      return this;
    }

    public Builder fault(FaultMode mode) {
      fault = mode;
      return this;
    }

    /** The event loops to run on (default: a shared daemon group of two). */
    public Builder eventLoopGroup(EventLoopGroup g) {
      group = g;
      return this;
    }

    /** Called on the event loop with every packet-out received. */
    public Builder packetOutHook(Consumer<PacketOutRecord> hook) {
      packetOutHook = hook;
      return this;
    }

    /** Told of arriving features requests, flow-mods and packet-outs (default: none). */
    public Builder messageListener(ControllerMessageListener l) {
      listener = l;
      return this;
    }

    /**
     * Whether received mods and packet-outs are kept for {@link
     * SimulatedOpenFlowSwitch#receivedMods()} and {@link SimulatedOpenFlowSwitch#packetOuts()}
     * (default true). A load generator that receives millions turns it off, so memory stays flat.
     */
    public Builder recordReceived(boolean on) {
      recordReceived = on;
      return this;
    }

    /**
     * Whether flow-mods and group-mods are applied to the table (default true). Off, neither is
     * applied, refused or recorded (flow-mods are still told to the listener) and the table keeps
     * its state: as cbench's emulated switches, which only count what they receive. Barriers are
     * still answered.
     */
    public Builder applyMods(boolean on) {
      applyMods = on;
      return this;
    }

    public SimulatedOpenFlowSwitch build() {
      if (ports.isEmpty()) {
        ports(1, 2, 3, 4);
      }
      return new SimulatedOpenFlowSwitch(this);
    }
  }
}
