package org.netpubsub.controller.local;

import java.io.Closeable;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.event.DecodeException;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.event.EventCodec;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.SwitchPort;

/**
 * The local network's data plane on loopback UDP. A client attaches first: one datagram {@code
 * nps-local attach [ADDRESS]} to the switch's control port, answered with {@code nps-local host
 * ADDRESS PORT}: its host address and the UDP port of its host's cable. The cable is a loopback
 * socket standing for the host's switch port: a publisher sends its events there. Each event is
 * decoded to find its content address (what the publisher's multicast destination would have been),
 * run through the switches' flow tables from the host's port ({@link LocalFabric}), and every copy
 * that leaves by a host port goes to {@code [::1]:udp_dst} — the subscriber's port the last switch
 * wrote. One thread; malformed datagrams are counted and dropped.
 */
public final class LocalSwitch implements Closeable {
  /** The request prefix. */
  public static final String ATTACH = "nps-local attach";

  private static final System.Logger LOG = System.getLogger(LocalSwitch.class.getName());

  private final LocalFabric fabric;
  private final Function<Optional<Ipv6Address>, Host> attacher;
  private final Supplier<SpatialIndex> index;
  private final Selector selector;
  private final DatagramChannel control;
  private final DatagramChannel out;
  private final Map<Ipv6Address, DatagramChannel> cables = new ConcurrentHashMap<>();
  // the ports hosts are attached at: a copy leaving by another edge port reaches nobody
  private final Set<SwitchPort> attached = ConcurrentHashMap.newKeySet();
  private final ByteBuffer buffer = ByteBuffer.allocate(EventCodec.MAX_SIZE + 1);
  private final Thread thread;
  private final Counters counters = new Counters();
  private EventCodec codec; // of the index's schema, loop only
  private SpatialIndex codecIndex;

  /** What the data plane did. */
  public static final class Counters {
    public final AtomicLong events = new AtomicLong();
    public final AtomicLong deliveries = new AtomicLong();
    public final AtomicLong unmatched = new AtomicLong();
    public final AtomicLong malformed = new AtomicLong();
    public final AtomicLong looped = new AtomicLong();
  }

  /**
   * Opens the control port on loopback and starts the thread.
   *
   * @param attacher registers a host (the given address or a new one) and returns it
   * @param index the index events are addressed by (read per event: it may change)
   */
  public LocalSwitch(
      LocalFabric fabric,
      Function<Optional<Ipv6Address>, Host> attacher,
      Supplier<SpatialIndex> index)
      throws IOException {
    this.fabric = fabric;
    this.attacher = attacher;
    this.index = index;
    this.selector = Selector.open();
    this.control = open();
    this.out = DatagramChannel.open(StandardProtocolFamily.INET6);
    control.register(selector, SelectionKey.OP_READ);
    this.thread = Thread.ofPlatform().daemon().name("nps-local-switch").start(this::run);
  }

  private static DatagramChannel open() throws IOException {
    DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET6);
    // A publisher's burst waits here while the thread runs events through the tables.
    ch.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
    ch.bind(new InetSocketAddress(LOOPBACK6, 0));
    ch.configureBlocking(false);
    return ch;
  }

  /** Where clients attach: {@code [::1]:PORT}. */
  public InetSocketAddress address() {
    try {
      return (InetSocketAddress) control.getLocalAddress();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  public Counters counters() {
    return counters;
  }

  private void run() {
    try {
      while (selector.isOpen()) {
        selector.select();
        for (SelectionKey k : selector.selectedKeys()) {
          DatagramChannel ch = (DatagramChannel) k.channel();
          buffer.clear();
          SocketAddress from = ch.receive(buffer);
          if (from == null) {
            continue;
          }
          buffer.flip();
          if (ch == control) {
            attach(from);
          } else {
            event((Host) k.attachment(), (InetSocketAddress) from);
          }
        }
        selector.selectedKeys().clear();
      }
    } catch (ClosedSelectorException | IOException e) {
      if (selector.isOpen()) {
        LOG.log(Level.ERROR, "local switch stopped", e);
      }
    }
  }

  private void attach(SocketAddress from) throws IOException {
    String text = StandardCharsets.UTF_8.decode(buffer).toString().strip();
    String reply;
    try {
      if (!text.startsWith(ATTACH)) {
        throw new IllegalArgumentException("expected '" + ATTACH + " [ADDRESS]'");
      }
      String rest = text.substring(ATTACH.length()).strip();
      Host h = attacher.apply(rest.isEmpty() ? Optional.empty() : Optional.of(parse(rest)));
      DatagramChannel cable = cables.get(h.address());
      if (cable == null) {
        cable = open();
        cable.register(selector, SelectionKey.OP_READ, h);
        cables.put(h.address(), cable);
      }
      attached.add(h.attachment());
      int port = ((InetSocketAddress) cable.getLocalAddress()).getPort();
      reply = "nps-local host " + h.address() + " " + port;
      LOG.log(
          Level.INFO,
          "host {0} attached at {1}, cable [::1]:{2}",
          h.address(),
          h.attachment(),
          Integer.toString(port));
    } catch (RuntimeException e) {
      counters.malformed.incrementAndGet();
      reply = "nps-local error " + e.getMessage();
    }
    control.send(ByteBuffer.wrap(reply.getBytes(StandardCharsets.UTF_8)), from);
  }

  private static Ipv6Address parse(String text) {
    try {
      return Ipv6Address.parse(text);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not an IPv6 address: '" + text + "'");
    }
  }

  private void event(Host host, InetSocketAddress from) throws IOException {
    SpatialIndex idx = index.get();
    if (idx != codecIndex) {
      codec = new EventCodec(idx.schema());
      codecIndex = idx;
    }
    byte[] bytes = Arrays.copyOf(buffer.array(), buffer.limit());
    Event e;
    try {
      e = codec.decode(bytes);
    } catch (DecodeException | RuntimeException x) {
      counters.malformed.incrementAndGet();
      return;
    }
    counters.events.incrementAndGet();
    Ipv6Address to = idx.address(e).ipv6();
    PacketHeaders h =
        PacketHeaders.udp6(host.address(), to, from.getPort(), ContentFlows.EVENT_PORT);
    LocalFabric.Trip trip = fabric.send(host.attachment(), h);
    if (trip.looped()) {
      counters.looped.incrementAndGet();
    }
    List<LocalFabric.Delivery> toHosts =
        trip.deliveries().stream().filter(d -> attached.contains(d.port())).toList();
    if (toHosts.isEmpty()) {
      counters.unmatched.incrementAndGet();
    }
    for (LocalFabric.Delivery d : toHosts) {
      // Every host of the local network is this machine: the copy goes to the subscriber's port.
      out.send(ByteBuffer.wrap(bytes), new InetSocketAddress(LOOPBACK6, d.headers().udpDst()));
      counters.deliveries.incrementAndGet();
    }
  }

  private static final InetAddress LOOPBACK6 = loopback6();

  private static InetAddress loopback6() {
    try {
      return InetAddress.getByName("::1");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() throws IOException {
    selector.close();
    try {
      thread.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    control.close();
    out.close();
    for (DatagramChannel c : cables.values()) {
      c.close();
    }
  }
}
