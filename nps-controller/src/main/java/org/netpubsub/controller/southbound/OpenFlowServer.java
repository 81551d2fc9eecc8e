package org.netpubsub.controller.southbound;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The OpenFlow 1.3 controller endpoint: accepts switches over TCP, runs the handshake with each,
 * keeps them alive, hands out a {@link SwitchHandle} per connected switch, and reconciles a
 * (re)connecting switch's tables with its {@link DesiredState}. Lifecycle LATENT → STARTED → CLOSED
 * ({@link #start}, {@link #close}). See docs/southbound.md for the threading model.
 */
public interface OpenFlowServer extends Closeable {

  static Builder builder() {
    return new Builder();
  }

  /** Binds and starts accepting switches. Only from LATENT. */
  OpenFlowServer start() throws IOException;

  ServerState state();

  /** The bound address (with the real port when port 0 was asked for). Only when STARTED. */
  InetSocketAddress localAddress();

  /** The connected switch with this datapath id, if any. */
  Optional<SwitchHandle> switchHandle(long dpid);

  /** Every connected switch. */
  Collection<SwitchHandle> switches();

  SouthboundMetrics metrics();

  /**
   * The desired flows and groups per datapath id, restored whenever a switch (re)connects (unless
   * {@link Builder#reconcileOnConnect} is off).
   */
  DesiredStateStore desiredState();

  /**
   * Reads the switch's flows and groups, sends only the messages that bring them (within the
   * store's {@link DesiredStateStore#scope}) to its stored desired state, and completes when they
   * are acknowledged. Fails if the switch is not connected or has no desired state.
   */
  CompletableFuture<ReconcileResult> reconcile(long dpid);

  /**
   * Brings what {@code scope} selects on the switch to {@code desired} (which is not stored),
   * leaving everything else as it is; completes when acknowledged. Fails if the switch is not
   * connected.
   */
  CompletableFuture<ReconcileResult> reconcile(
      long dpid, DesiredState desired, ReconcileScope scope);

  /** Disconnects every switch, stops accepting, releases the threads. Idempotent. */
  @Override
  void close();

  /** Configures an {@link OpenFlowServer}; defaults in {@link ServerConfig}. */
  final class Builder {
    private String bindAddress = ServerConfig.DEFAULT_BIND_ADDRESS;
    private int port = ServerConfig.DEFAULT_PORT;
    private Duration echoInterval = ServerConfig.DEFAULT_ECHO_INTERVAL;
    private Duration deadPeerTimeout = ServerConfig.DEFAULT_DEAD_PEER_TIMEOUT;
    private Duration barrierTimeout = ServerConfig.DEFAULT_BARRIER_TIMEOUT;
    private Duration handshakeTimeout = ServerConfig.DEFAULT_HANDSHAKE_TIMEOUT;
    private int maxMessageSize = ServerConfig.DEFAULT_MAX_MESSAGE_SIZE;
    private int eventLoopThreads = ServerConfig.DEFAULT_EVENT_LOOP_THREADS;
    private SouthboundListener listener = new SouthboundListener() {};
    private DesiredStateStore desiredState = new DesiredStateStore();
    private OpenFlowTls tls;
    private boolean reconcileOnConnect = true;
    private io.netty.channel.EventLoopGroup eventLoop;

    private Builder() {}

    /** Default 0.0.0.0 (every interface). */
    public Builder bindAddress(String address) {
      bindAddress = address;
      return this;
    }

    /** Default 6653; 0 picks a free port ({@link OpenFlowServer#localAddress}). */
    public Builder port(int p) {
      port = p;
      return this;
    }

    /** Read silence after which an echo request is sent (default 5 s). */
    public Builder echoInterval(Duration d) {
      echoInterval = d;
      return this;
    }

    /** Read silence after which the switch is disconnected as dead (default 15 s). */
    public Builder deadPeerTimeout(Duration d) {
      deadPeerTimeout = d;
      return this;
    }

    /** How long a batch waits for its barrier reply, and a multipart request for its replies. */
    public Builder barrierTimeout(Duration d) {
      barrierTimeout = d;
      return this;
    }

    public Builder handshakeTimeout(Duration d) {
      handshakeTimeout = d;
      return this;
    }

    /** Frames longer than this close the connection (default and maximum 65535). */
    public Builder maxMessageSize(int bytes) {
      maxMessageSize = bytes;
      return this;
    }

    public Builder eventLoopThreads(int n) {
      eventLoopThreads = n;
      return this;
    }

    /**
     * Serves the switches on the caller's event-loop group instead of its own (default: its own of
     * {@link #eventLoopThreads} threads); the server never shuts it down. A batch's future then
     * completes on the switch's event loop, not on a callback thread: the network controller runs
     * its loop on a one-thread group it shares here, so a batch it applies is written and
     * acknowledged on its own thread, with no hand-off either way (docs/architecture.md, "Subscribe
     * → flow-mods", step 6). Continuations of those futures must not block.
     */
    public Builder eventLoop(io.netty.channel.EventLoopGroup group) {
      eventLoop = group;
      return this;
    }

    public Builder listener(SouthboundListener l) {
      listener = l;
      return this;
    }

    /** Shares a desired-state store (default: a new empty one). */
    public Builder desiredState(DesiredStateStore store) {
      desiredState = store;
      return this;
    }

    /** Serves OpenFlow over mutual TLS instead of TCP (default: plain TCP). */
    public Builder tls(OpenFlowTls settings) {
      tls = settings;
      return this;
    }

    /**
     * Whether the server reconciles a switch that connects with a desired state (default on). Off
     * when the user reconciles every connecting switch itself, in turn with its other reconciles of
     * the switch: two at once would plan from one read and send the same ADD twice.
     */
    public Builder reconcileOnConnect(boolean on) {
      reconcileOnConnect = on;
      return this;
    }

    /** The server, LATENT: call {@link OpenFlowServer#start}. */
    public OpenFlowServer build() {
      ServerConfig config =
          new ServerConfig(
              bindAddress,
              port,
              echoInterval,
              deadPeerTimeout,
              barrierTimeout,
              handshakeTimeout,
              maxMessageSize,
              eventLoopThreads,
              listener,
              tls,
              reconcileOnConnect);
      if (desiredState == null) {
        throw new IllegalArgumentException("desired-state store is required");
      }
      return new NettyOpenFlowServer(config, desiredState, eventLoop);
    }
  }
}
