package org.netpubsub.client;

import java.io.Closeable;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.event.DecodeException;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.event.EventCodec;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.FilterEvaluator;

/**
 * A subscriber (PLEROMA §II): binds a UDP port, subscribes its filter for that port, and a receive
 * thread decodes every datagram, re-checks the exact filter and delivers. The switches forward by
 * dz cells, which may over-cover the filter; such false positives are dropped and counted here, as
 * are malformed datagrams — a datagram never stops the thread. Deliveries go to the callback given
 * to the builder, or else to a queue read by {@link #poll}. {@link #close()} unsubscribes.
 */
public final class Subscriber implements Closeable {
  private static final System.Logger LOG = System.getLogger(Subscriber.class.getName());

  private final ControllerClient controller;
  private final EventCodec codec;
  private final Dnf exact;
  private final InstantSource clock;
  private final Consumer<Delivery> callback;
  private final BlockingQueue<Delivery> queue;
  private final DatagramChannel channel;
  private final int port;
  private final Registration subscription;
  private final Thread receiver;
  private final SubscriberCounters counters = new SubscriberCounters();
  private final Duration statsInterval;
  private final Thread reporter;
  private long reportedReceived = -1;
  private volatile boolean closed;

  private Subscriber(Builder b, PubSubConfig config, Inet6Address host, Dnf exact)
      throws IOException {
    this.controller = b.controller;
    this.codec = new EventCodec(config.schema());
    this.exact = exact;
    this.clock = b.clock;
    this.statsInterval = b.statsInterval;
    this.callback = b.callback;
    this.queue = b.callback == null ? new LinkedBlockingQueue<>(b.queueCapacity) : null;
    if (b.warmUp > 0) { // before the subscription: no real datagram waits behind it
      ReceiveWarmup.run(codec, exact, b.warmUp, 1);
    }
    this.channel = DatagramChannel.open(StandardProtocolFamily.INET6);
    try {
      channel.setOption(StandardSocketOptions.SO_RCVBUF, b.receiveBuffer);
      // Any address: the last switch rewrites the destination to the host address and this port.
      channel.bind(new InetSocketAddress(b.port));
      this.port = ((InetSocketAddress) channel.getLocalAddress()).getPort();
      this.subscription = controller.subscribe(host, b.filter, port);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    this.receiver =
        Thread.ofPlatform().daemon().name("nps-subscriber-" + port).unstarted(this::run);
    receiver.start();
    this.reporter =
        statsInterval.isZero()
            ? null
            : Thread.ofPlatform().daemon().name("nps-stats-" + port).start(this::reportLoop);
    LOG.log(
        Level.INFO,
        "subscribed {0} for {1} port {2} as {3}",
        b.filter,
        Ipv6Address.format(host),
        Integer.toString(port),
        subscription.id());
  }

  public static Builder builder(ControllerClient controller) {
    return new Builder(controller);
  }

  private void run() {
    ByteBuffer buf = ByteBuffer.allocateDirect(EventCodec.MAX_SIZE + 1);
    while (!closed) {
      buf.clear();
      try {
        channel.receive(buf);
      } catch (ClosedChannelException e) {
        return; // close() or interrupt: the normal end
      } catch (IOException e) {
        if (closed) {
          return;
        }
        LOG.log(Level.WARNING, "receive failed on port " + port, e);
        continue;
      }
      buf.flip();
      try {
        handle(buf);
      } catch (RuntimeException e) {
        // Not from the datagram (decoding errors are checked): a bug or a failing clock. The
        // thread goes on, so one bad moment does not end the subscription.
        LOG.log(Level.WARNING, "a datagram on port " + port + " could not be handled", e);
      }
    }
  }

  /** Reports the counters every {@code statsInterval} until closed (docs/pubsub.md). */
  private void reportLoop() {
    while (!closed) {
      try {
        Thread.sleep(statsInterval);
      } catch (InterruptedException e) {
        return; // close(): it sends the last report itself
      }
      report();
    }
  }

  /**
   * Sends received and false positives if they changed since the last report; a failure is logged
   * and the next report carries the counts (they are cumulative).
   */
  private synchronized void report() {
    SubscriberStats s = counters.snapshot();
    long received = s.delivered() + s.falsePositives() + s.overflowed();
    if (received == reportedReceived) {
      return;
    }
    try {
      controller.reportStats(subscription.id(), received, s.falsePositives());
      reportedReceived = received;
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "stats of {0} not reported: {1}", subscription.id(), e.getMessage());
    }
  }

  private void handle(ByteBuffer datagram) {
    long receivedAt = WallClock.nanos(clock);
    counters.received.increment();
    Event event;
    try {
      event = codec.decode(datagram);
    } catch (DecodeException e) {
      counters.malformed.increment();
      LOG.log(
          Level.DEBUG,
          "malformed datagram on port {0}: {1}",
          Integer.toString(port),
          e.getMessage());
      return;
    }
    if (!FilterEvaluator.matches(exact, event)) {
      counters.falsePositives.increment();
      return;
    }
    deliver(new Delivery(event, receivedAt - event.timestampNanos(), receivedAt));
  }

  private void deliver(Delivery d) {
    if (callback != null) {
      counters.delivered.increment();
      try {
        callback.accept(d);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "the delivery callback failed; continuing", e);
      }
    } else {
      // Counted first, so that whoever polls the delivery sees it counted.
      counters.delivered.increment();
      if (!queue.offer(d)) {
        counters.delivered.decrement();
        counters.overflowed.increment();
      }
    }
  }

  /** The next delivery from the queue, or null after {@code timeout} (queue mode only). */
  public Delivery poll(Duration timeout) throws InterruptedException {
    if (queue == null) {
      throw new IllegalStateException("deliveries go to the callback given to the builder");
    }
    return queue.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  public SubscriberStats stats() {
    return counters.snapshot();
  }

  /** The UDP port events arrive on (the one bound; 0 in the builder means any). */
  public int port() {
    return port;
  }

  public Registration subscription() {
    return subscription;
  }

  /** Unsubscribes, then stops the receive thread; it stops even when the controller refuses. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    if (reporter != null) {
      reporter.interrupt();
      report();
    }
    try {
      controller.unsubscribe(subscription.id());
    } finally {
      channel.close(); // wakes the receive thread
      try {
        receiver.join(Duration.ofSeconds(5));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Options of a {@link Subscriber}; {@link #build()} binds and subscribes. */
  public static final class Builder {
    private final ControllerClient controller;
    private Inet6Address host;
    private String filter;
    private int port;
    private PubSubConfig config;
    private InstantSource clock = InstantSource.system();
    private Consumer<Delivery> callback;
    private int queueCapacity = 65_536;
    private int receiveBuffer = 4 << 20;
    private Duration statsInterval = Duration.ofSeconds(5);
    private int warmUp;

    private Builder(ControllerClient controller) {
      this.controller = Objects.requireNonNull(controller, "controller");
    }

    /** The host's data address; default: detected ({@link HostAddresses#detect}). */
    public Builder host(Inet6Address a) {
      this.host = a;
      return this;
    }

    /** The subscription (required). */
    public Builder filter(String text) {
      this.filter = Objects.requireNonNull(text, "filter");
      return this;
    }

    /** The UDP port to bind; 0 (default): any free port, see {@link Subscriber#port()}. */
    public Builder port(int p) {
      if (p < 0 || p > 65535) {
        throw new IllegalArgumentException("port " + p + " is outside 0..65535");
      }
      this.port = p;
      return this;
    }

    /** The schema and index; default: fetched from the controller. */
    public Builder config(PubSubConfig c) {
      this.config = c;
      return this;
    }

    public Builder clock(InstantSource c) {
      this.clock = Objects.requireNonNull(c, "clock");
      return this;
    }

    /**
     * Called on the receive thread for each delivery (keep it short); without one, deliveries queue
     * for {@link Subscriber#poll}.
     */
    public Builder onDelivery(Consumer<Delivery> c) {
      this.callback = c;
      return this;
    }

    /** Queue mode: deliveries beyond this many unread are dropped and counted. */
    public Builder queueCapacity(int capacity) {
      if (capacity < 1) {
        throw new IllegalArgumentException("queue capacity must be positive");
      }
      this.queueCapacity = capacity;
      return this;
    }

    /** SO_RCVBUF in bytes (default 4 MiB; the kernel may cap it). */
    public Builder receiveBuffer(int bytes) {
      if (bytes < 1024) {
        throw new IllegalArgumentException("receive buffer must be at least 1024 bytes");
      }
      this.receiveBuffer = bytes;
      return this;
    }

    /**
     * How often the subscriber reports received and false positives to the controller ({@code POST
     * /v1/subscriptions/{id}/stats}; default 5 s); {@link Duration#ZERO}: never.
     */
    public Builder statsInterval(Duration d) {
      if (d.isNegative()) {
        throw new IllegalArgumentException("stats interval must not be negative");
      }
      this.statsInterval = d;
      return this;
    }

    /**
     * Before subscribing, decode and filter this many synthetic events of the schema (none by
     * default), so that the JIT has compiled the receive path before the first real event arrives;
     * about 20 000 take C2 there ({@link ReceiveWarmup}). For a subscriber whose first events'
     * latency matters, such as a benchmark's.
     */
    public Builder warmUp(int events) {
      if (events < 0) {
        throw new IllegalArgumentException("warm-up events must not be negative");
      }
      this.warmUp = events;
      return this;
    }

    /**
     * Fetches the configuration if needed, checks the filter against the schema, binds the port,
     * subscribes and starts the receive thread.
     *
     * @throws org.netpubsub.content.InvalidInputException when the filter is malformed
     * @throws ControllerException when the controller refuses
     */
    public Subscriber build() throws IOException {
      if (filter == null) {
        throw new IllegalArgumentException("a subscriber needs a filter");
      }
      PubSubConfig c = config != null ? config : controller.pubsubConfig();
      Dnf dnf = Filters.parseExact(c.schema(), filter, "a subscription");
      Inet6Address h =
          c.localSwitch() != null
              ? LocalAttachment.attach(c.localSwitch(), host).host() // docs/local.md
              : host != null ? host : HostAddresses.detect(controller.base());
      return new Subscriber(this, c, h, dnf);
    }
  }
}
