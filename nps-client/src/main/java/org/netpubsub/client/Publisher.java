package org.netpubsub.client;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.security.SecureRandom;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.event.EventCodec;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.FilterEvaluator;

/**
 * A publisher (PLEROMA §II): advertises its filter, then sends each event as one UDP datagram to
 * the event's content address ({@code ff0e::/16} + dz, port 7073) through the host's data
 * interface. Refuses events outside its advertisement: the network installs paths only for the
 * overlap of advertisements and subscriptions. {@link #close()} unadvertises. Thread-safe.
 */
public final class Publisher implements Closeable {
  private static final System.Logger LOG = System.getLogger(Publisher.class.getName());

  private final ControllerClient controller;
  // replaced when the controller switches its index layout (a new index version)
  private volatile PubSubConfig config;
  private final Runnable stopListening;
  private final ScheduledExecutorService refresher; // null: no polling
  private final EventCodec codec;
  private final Inet6Address host;
  private final String filter;
  private final Dnf advertised;
  private final InetSocketAddress destination;
  private final InstantSource clock;
  private final long publisherId;
  private final DatagramChannel channel;
  private final String interfaceName;
  private final ByteBuffer buffer = ByteBuffer.allocateDirect(EventCodec.MAX_SIZE);
  private final Registration advertisement;
  private final long lingerNanos;
  private long sequence;
  private long published;
  private long lastSentNanos;
  private boolean closed;

  private Publisher(
      Builder b, PubSubConfig config, Inet6Address host, Dnf advertised, LocalAttachment local)
      throws IOException {
    this.controller = b.controller;
    this.config = config;
    this.codec = new EventCodec(config.schema());
    this.host = host;
    this.filter = b.filter;
    this.advertised = advertised;
    // On a local network every event enters the local switch by its host's cable.
    this.destination = b.destination != null || local == null ? b.destination : local.cable();
    this.clock = b.clock;
    // The local switch is one thread that may lag behind a burst: its flows must stand longer.
    this.lingerNanos =
        local != null && b.linger.equals(DEFAULT_LINGER)
            ? LOCAL_LINGER.toNanos()
            : b.linger.toNanos();
    this.publisherId = b.publisherId != null ? b.publisherId : new SecureRandom().nextLong();
    if (local != null) {
      // The host address is the local network's, not this machine's: send from loopback.
      this.interfaceName = "the local network";
      this.channel = DatagramChannel.open(StandardProtocolFamily.INET6);
      channel.bind(new InetSocketAddress(local.cable().getAddress(), 0));
    } else {
      NetworkInterface nif = HostAddresses.interfaceOf(host);
      this.interfaceName = nif.getName();
      this.channel = openChannel(host, nif, b.destination, b.multicastHops);
    }
    this.stopListening = controller.onIndexChange(this::useIndex);
    try {
      this.advertisement = controller.advertise(host, filter);
    } catch (RuntimeException e) {
      stopListening.run();
      channel.close();
      throw e;
    }
    this.refresher = b.indexRefresh.isZero() ? null : startRefresher(b.indexRefresh);
    LOG.log(
        Level.INFO,
        "publisher {0} advertised {1} as {2}",
        Long.toUnsignedString(publisherId, 16),
        filter,
        advertisement.id());
  }

  /**
   * A new index version (the controller switched its layout): events from now on go to the new
   * index's addresses and port. The controller keeps the old layout's flows for a grace period
   * after announcing the new one, so events sent just before are still delivered.
   */
  private void useIndex(PubSubConfig next) {
    if (!next.schema().attributes().equals(config.schema().attributes())) {
      LOG.log(Level.WARNING, "the controller's new index has other attributes; keeping the old");
      return;
    }
    config = next;
  }

  /** Polls {@code GET /v1/pubsub} every {@code every}, so a layout switch is seen in time. */
  private ScheduledExecutorService startRefresher(java.time.Duration every) {
    ScheduledExecutorService s =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "nps-publisher-index");
              t.setDaemon(true);
              return t;
            });
    long ms = every.toMillis();
    s.scheduleWithFixedDelay(
        () -> {
          try {
            controller.pubsubConfig(); // calls useIndex when the version changed
          } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "index refresh failed: {0}", e.getMessage());
          }
        },
        ms,
        ms,
        TimeUnit.MILLISECONDS);
    return s;
  }

  public static Builder builder(ControllerClient controller) {
    return new Builder(controller);
  }

  /** A channel bound to the host address, multicast leaving through the interface that holds it. */
  private DatagramChannel openChannel(
      Inet6Address host, NetworkInterface nif, InetSocketAddress override, int multicastHops)
      throws IOException {
    DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET6);
    try {
      ch.bind(new InetSocketAddress(host, 0));
      if (override == null) {
        // The test bed also routes ff00::/8 to eth0, but a host with several interfaces must not
        // depend on the routing table: the data interface is the one holding the host address.
        ch.setOption(StandardSocketOptions.IP_MULTICAST_IF, nif);
        ch.setOption(StandardSocketOptions.IP_MULTICAST_TTL, multicastHops);
        LOG.log(
            Level.INFO,
            "publishing from {0} on {1} (index {2}) to content addresses, UDP port {3}, hops {4}",
            Ipv6Address.format(host),
            nif.getName(),
            Integer.toString(nif.getIndex()),
            Integer.toString(config.eventPort()),
            Integer.toString(multicastHops));
      } else {
        LOG.log(
            Level.INFO,
            "publishing from {0} to the fixed address {1} instead of content addresses",
            Ipv6Address.format(host),
            override);
      }
      return ch;
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  /**
   * Stamps the event (publisher id, next sequence number, wall-clock timestamp), encodes it and
   * sends one datagram to its content address.
   *
   * @return the event as sent
   * @throws IllegalArgumentException when the event is of another schema or outside the
   *     advertisement
   * @throws UncheckedIOException when the datagram cannot be sent
   */
  public Event publish(Event event) {
    PubSubConfig config = this.config; // one index for the whole event
    if (!event.schema().attributes().equals(config.schema().attributes())) {
      throw new IllegalArgumentException(
          "event of schema " + event.schema().name() + ", the controller's is " + schemaName());
    }
    if (!FilterEvaluator.matches(advertised, event)) {
      throw new IllegalArgumentException(
          "event " + event + " is outside the advertisement '" + filter + "'");
    }
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("publisher is closed");
      }
      Event stamped =
          event.toBuilder()
              .publisherId(publisherId)
              .sequence(sequence + 1)
              .timestampNanos(WallClock.nanos(clock))
              .build();
      InetSocketAddress to =
          destination != null
              ? destination
              : new InetSocketAddress(config.address(stamped), config.eventPort());
      buffer.clear();
      codec.encode(stamped, buffer);
      buffer.flip();
      try {
        channel.send(buffer, to);
      } catch (IOException e) {
        throw new UncheckedIOException(
            "cannot send the event to " + to + " from " + interfaceName + ": " + e.getMessage(), e);
      }
      sequence++;
      lastSentNanos = System.nanoTime();
      published++;
      return stamped;
    }
  }

  private String schemaName() {
    return config.schema().name();
  }

  public Registration advertisement() {
    return advertisement;
  }

  /** The random 64-bit id every event of this publisher carries. */
  public long publisherId() {
    return publisherId;
  }

  public Inet6Address host() {
    return host;
  }

  public PubSubConfig config() {
    return config;
  }

  public synchronized long published() {
    return published;
  }

  /** Unadvertises and closes the socket; the socket is closed even when the controller refuses. */
  @Override
  public void close() throws IOException {
    long sentAt;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      sentAt = sequence == 0 ? Long.MIN_VALUE : lastSentNanos;
    }
    stopListening.run();
    if (refresher != null) {
      refresher.shutdownNow();
    }
    // Datagrams still in the switches would be cut off if their paths went now: linger first.
    if (sentAt != Long.MIN_VALUE) {
      for (long wait = sentAt + lingerNanos - System.nanoTime();
          wait > 0;
          wait = sentAt + lingerNanos - System.nanoTime()) {
        java.util.concurrent.locks.LockSupport.parkNanos(wait);
      }
    }
    try {
      controller.unadvertise(advertisement.id());
    } finally {
      channel.close();
    }
  }

  /** How long {@link #close} waits after the last event, by default, before unadvertising. */
  public static final java.time.Duration DEFAULT_LINGER = java.time.Duration.ofMillis(200);

  /** The default linger on a local network ({@code nps local}, docs/local.md). */
  public static final java.time.Duration LOCAL_LINGER = java.time.Duration.ofSeconds(1);

  /** Options of a {@link Publisher}; {@link #build()} advertises. */
  public static final class Builder {
    private final ControllerClient controller;
    private Inet6Address host;
    private String filter = "true";
    private PubSubConfig config;
    private InetSocketAddress destination;
    private int multicastHops = 16;
    private InstantSource clock = InstantSource.system();
    private java.time.Duration linger = DEFAULT_LINGER;
    private Long publisherId;
    private java.time.Duration indexRefresh = java.time.Duration.ZERO;

    private Builder(ControllerClient controller) {
      this.controller = Objects.requireNonNull(controller, "controller");
    }

    /** The host's data address; default: detected ({@link HostAddresses#detect}). */
    public Builder host(Inet6Address a) {
      this.host = a;
      return this;
    }

    /** The advertisement; default {@code true}, the whole event space. */
    public Builder advertisement(String filterText) {
      this.filter = Objects.requireNonNull(filterText, "filter");
      return this;
    }

    /** The schema and index; default: fetched from the controller. */
    public Builder config(PubSubConfig c) {
      this.config = c;
      return this;
    }

    /**
     * Sends every event to this unicast address instead of its content address: for tests without
     * switches, standing in for the last switch's rewrite.
     */
    public Builder destination(InetSocketAddress to) {
      this.destination = to;
      return this;
    }

    public Builder multicastHops(int hops) {
      if (hops < 1 || hops > 255) {
        throw new IllegalArgumentException("multicast hops must be in 1..255, got " + hops);
      }
      this.multicastHops = hops;
      return this;
    }

    /**
     * How long {@link #close} waits after the last event before it unadvertises (default {@link
     * #DEFAULT_LINGER}), so that events in flight still find their paths.
     */
    public Builder linger(java.time.Duration d) {
      if (d.isNegative()) {
        throw new IllegalArgumentException("linger must not be negative: " + d);
      }
      this.linger = d;
      return this;
    }

    /**
     * Polls the controller's index every {@code every} (zero, the default: never), so that an
     * online layout switch is followed within its grace period even while the publisher makes no
     * other request. Without it the new index is only fetched after a 409 "stale index".
     */
    public Builder indexRefresh(java.time.Duration every) {
      if (every.isNegative()) {
        throw new IllegalArgumentException("indexRefresh must not be negative: " + every);
      }
      this.indexRefresh = every;
      return this;
    }

    public Builder clock(InstantSource c) {
      this.clock = Objects.requireNonNull(c, "clock");
      return this;
    }

    /** A fixed publisher id; default: random. */
    public Builder publisherId(long id) {
      this.publisherId = id;
      return this;
    }

    /**
     * Fetches the configuration if needed, checks the advertisement against the schema, opens the
     * socket and advertises.
     *
     * @throws org.netpubsub.content.InvalidInputException when the filter is malformed
     * @throws IllegalArgumentException when the host address is unusable
     * @throws ControllerException when the controller refuses
     */
    public Publisher build() throws IOException {
      PubSubConfig c = config != null ? config : controller.pubsubConfig();
      Dnf dnf = Filters.parseExact(c.schema(), filter, "an advertisement");
      if (c.localSwitch() != null) {
        LocalAttachment local = LocalAttachment.attach(c.localSwitch(), host);
        return new Publisher(this, c, local.host(), dnf, local);
      }
      Inet6Address h = host != null ? host : HostAddresses.detect(controller.base());
      return new Publisher(this, c, h, dnf, null);
    }
  }
}
