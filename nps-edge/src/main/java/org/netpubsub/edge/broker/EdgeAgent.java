package org.netpubsub.edge.broker;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.WanEmulation;

/**
 * The SNAPS agent beside one unmodified MQTT or AMQP broker (docs/edge.md): Agent-Sub forwards what
 * the broker's clients publish, Agent-Pub publishes what other edges send, and the broker's log
 * (Mosquitto) or event exchange (RabbitMQ) tells the coordinator which topic filters its clients
 * hold. Started by its builder; {@link #close} stops it without leaving the coordinator (the
 * broker's subscriptions outlive an agent restart).
 */
public interface EdgeAgent extends Closeable {
  static Builder builder() {
    return new Builder();
  }

  String edge();

  /** Where the agent receives datagrams (what the coordinator hands other agents). */
  InetSocketAddress datagramAddress();

  /** {@code spray} or {@code network}, as the coordinator said at registration. */
  String mode();

  AgentStats stats();

  /** The filters the coordinator has acknowledged as present at this edge. */
  Set<String> acknowledgedFilters();

  /** Reports whether every broker-log change has reached the coordinator. */
  boolean reportsPending();

  /**
   * Replaces the keys of the agents this one receives from (an agent started {@link
   * Builder#ownKeyOnly}): a sender left out is refused from its next datagram (a reload).
   */
  void senderKeys(java.util.Map<String, DatagramAuth> keys);

  /** From now on refuses every datagram naming one of {@code edges}, whatever its key. */
  void revokeEdges(Set<String> edges);

  /** Removes this edge from the coordinator (its filters and its place in retained routes). */
  void leave() throws IOException;

  @Override
  void close();

  /** Configures and starts an agent. */
  final class Builder {
    String edge;
    URI broker;
    URI coordinator;
    InetSocketAddress listen;
    int routeCacheSize = 100_000;
    Duration changeWait = Duration.ofSeconds(25);
    Duration coordinatorTimeout = Duration.ofSeconds(5);
    String coordinatorToken;
    javax.net.ssl.SSLContext coordinatorTls;
    ReliableDelivery.Settings reliable;
    WanEmulation emulation;
    DatagramAuth auth;
    Duration keyPoll; // keys from the coordinator, polled this often; null: auth says
    KeyPoller keyPoller; // made by start() when keyPoll is set (deployment keys)
    OwnKeyPoller ownKeyPoller; // made by start() when keyPoll and senders are set
    java.util.Map<String, DatagramAuth> senders; // null: auth holds the deployment keys
    Set<String> revoked = Set.of();

    /** Bounds of the key poll interval: at least this... */
    static final Duration MIN_KEY_POLL = Duration.ofMillis(100);

    /** ...and at most this, so a rotation reaches every agent within a known time. */
    static final Duration MAX_KEY_POLL = Duration.ofHours(1);

    private Builder() {}

    /**
     * How datagrams are authenticated (this or {@link #keysFromCoordinator}): {@link
     * DatagramAuth#fromFile a shared key}, or {@link DatagramAuth#insecure()} where a test or an
     * experiment asks for none.
     */
    public Builder auth(DatagramAuth a) {
      this.auth = Objects.requireNonNull(a);
      return this;
    }

    /**
     * The agent holds its own key only ({@link #auth}: {@code nps overlay keys edge}) and {@code
     * senders}, the keys of the agents it receives from by edge name (docs/security-datagrams.md,
     * "Per-agent keys (SNAPS)"): it signs as no other edge and accepts a datagram only under the
     * key of the edge it names. With {@link #keysFromCoordinator} instead of {@link #auth}, {@code
     * senders} must be empty: the coordinator hands out the own key, the senders' keys and the
     * revoked edges, refreshed every interval.
     */
    public Builder ownKeyOnly(java.util.Map<String, DatagramAuth> senders) {
      this.senders = Objects.requireNonNull(senders);
      return this;
    }

    /** Datagrams naming one of {@code edges} are refused whatever their key (a revocation). */
    public Builder revokedEdges(Set<String> edges) {
      this.revoked = Set.copyOf(edges);
      return this;
    }

    /**
     * Datagram keys from the coordinator instead of {@link #auth} (docs/security.md): fetched with
     * the {@link #coordinatorToken} before the first datagram, then polled every {@code interval}
     * (100 ms to 1 h) for rotations.
     */
    public Builder keysFromCoordinator(Duration interval) {
      if (interval.compareTo(MIN_KEY_POLL) < 0 || interval.compareTo(MAX_KEY_POLL) > 0) {
        throw new IllegalArgumentException(
            "--key-poll-interval must be between 100ms and 1h, not " + interval);
      }
      this.keyPoll = interval;
      return this;
    }

    /** The edge's name (1–64 of A-Z a-z 0-9 . _ -). */
    public Builder edge(String name) {
      this.edge = Objects.requireNonNull(name);
      return this;
    }

    /**
     * The local broker, {@code mqtt://HOST:PORT} or {@code amqp://[USER:PASS@]HOST:PORT[/VHOST]}.
     */
    public Builder broker(URI uri) {
      this.broker = Objects.requireNonNull(uri);
      return this;
    }

    /** The coordinator, {@code http://HOST:PORT}. */
    public Builder coordinator(URI uri) {
      this.coordinator = Objects.requireNonNull(uri);
      return this;
    }

    /** The UDP address to receive on; a specific address (it is what other edges send to). */
    public Builder listen(InetSocketAddress a) {
      this.listen = Objects.requireNonNull(a);
      return this;
    }

    public Builder routeCacheSize(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("route cache size must be at least 1");
      }
      this.routeCacheSize = n;
      return this;
    }

    /** How long one change poll may wait at the coordinator (default 25 s). */
    public Builder changeWait(Duration d) {
      this.changeWait = Objects.requireNonNull(d);
      return this;
    }

    /**
     * Reliable mode (docs/edge.md): sequenced datagrams, NACK-based repair from a buffer of the
     * last {@code buffer} messages sent, delivery in order per (origin, topic).
     */
    public Builder reliable(int buffer) {
      this.reliable = ReliableDelivery.Settings.DEFAULTS.withBuffer(buffer);
      return this;
    }

    /** Reliable mode with its timing spelled out (tests, experiments). */
    Builder reliable(ReliableDelivery.Settings s) {
      this.reliable = Objects.requireNonNull(s);
      return this;
    }

    /** Experiments only: every datagram the agent sends crosses this emulated WAN (loss, delay). */
    public Builder emulation(WanEmulation e) {
      this.emulation = e;
      return this;
    }

    /** The bearer token sent to a coordinator started with --auth (docs/security.md). */
    public Builder coordinatorToken(String token) {
      this.coordinatorToken = token;
      return this;
    }

    /** For an https coordinator URL: the TLS context trusting its CA (null: the JDK's). */
    public Builder coordinatorTls(javax.net.ssl.SSLContext tls) {
      this.coordinatorTls = tls;
      return this;
    }

    public Builder coordinatorTimeout(Duration d) {
      this.coordinatorTimeout = Objects.requireNonNull(d);
      return this;
    }

    /**
     * Binds the socket, registers at the coordinator, connects to the broker and subscribes;
     * refuses with a clear message if any of them fails.
     */
    public EdgeAgent start() throws IOException {
      if (edge == null || broker == null || coordinator == null || listen == null) {
        throw new IllegalArgumentException("an agent needs edge, broker, coordinator and listen");
      }
      if (!DatagramCodec.EDGE_NAME.matcher(edge).matches()) {
        throw new IllegalArgumentException(
            "edge name '" + edge + "' must be 1–64 of A-Z a-z 0-9 . _ -");
      }
      boolean amqp = "amqp".equals(broker.getScheme());
      if (!(amqp || "mqtt".equals(broker.getScheme()))
          || broker.getHost() == null
          || broker.getPort() < 0) {
        throw new IllegalArgumentException(
            "--broker must be mqtt://HOST:PORT or amqp://HOST:PORT[/VHOST], not '" + broker + "'");
      }
      if (!"http".equals(coordinator.getScheme())
          || coordinator.getHost() == null
          || coordinator.getPort() < 0) {
        throw new IllegalArgumentException(
            "--coordinator must be http://HOST:PORT, not '" + coordinator + "'");
      }
      if (listen.isUnresolved() || listen.getAddress().isAnyLocalAddress()) {
        throw new IllegalArgumentException(
            "--listen needs a specific address (other edges send to it), not " + listen);
      }
      if (auth == null && keyPoll == null) {
        throw new IllegalArgumentException(
            "datagrams are authenticated: an agent needs --datagram-key FILE or --coordinator-keys"
                + " (or --insecure-datagrams for tests)");
      }
      if (auth != null && keyPoll != null) {
        throw new IllegalArgumentException(
            "--coordinator-keys excludes --datagram-key and --insecure-datagrams");
      }
      if (senders != null && auth != null && !auth.secure()) {
        throw new IllegalArgumentException(
            "--own-key-only needs --datagram-key FILE (the agent's own key) or --coordinator-keys,"
                + " not --insecure-datagrams");
      }
      if (senders != null && keyPoll != null && !senders.isEmpty()) {
        throw new IllegalArgumentException(
            "--own-key-only --coordinator-keys excludes --sender-keys:"
                + " the coordinator hands out the senders' keys");
      }
      keyPoller = null;
      ownKeyPoller = null;
      if (keyPoll != null) {
        CoordinatorClient c =
            new CoordinatorClient(
                coordinator, coordinatorTimeout, coordinatorToken, coordinatorTls);
        if (senders != null) {
          ownKeyPoller = OwnKeyPoller.fetch(() -> c.ownKeys(edge), keyPoll, System::nanoTime);
        } else {
          keyPoller = KeyPoller.fetch(() -> c.keys(edge), keyPoll, System::nanoTime);
        }
      }
      return amqp ? AmqpEdgeAgent.start(this) : MqttEdgeAgent.start(this);
    }
  }
}
