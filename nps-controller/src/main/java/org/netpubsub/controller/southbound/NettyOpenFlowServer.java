package org.netpubsub.controller.southbound;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Netty implementation of {@link OpenFlowServer}: one small event-loop group accepts and serves
 * every switch; listener calls and future completions run on one ordered executor per datapath id,
 * backed by virtual threads. On a group its user shares ({@link OpenFlowServer.Builder#eventLoop}),
 * a batch's future completes on the event loop itself instead: the user's loop is that thread, so
 * the acknowledgement reaches it without another thread hand-off.
 *
 * <p>Locking: {@code registry} guards the dpid → connection map together with the enqueueing of
 * connect/disconnect events, so a reconnecting switch's old {@code switchDisconnected} always
 * precedes its new {@code switchConnected}. It is the only lock here; inside it only the {@link
 * SerialExecutor}'s queue lock is taken (order: registry → queue).
 */
final class NettyOpenFlowServer implements OpenFlowServer {
  private static final System.Logger LOG = System.getLogger(NettyOpenFlowServer.class.getName());

  private final ServerConfig config;
  private final DesiredStateStore desiredState;
  private final SouthboundMetrics metrics = new SouthboundMetrics();
  private final AtomicReference<ServerState> state = new AtomicReference<>(ServerState.LATENT);
  private final ExecutorService callbackThreads =
      Executors.newThreadPerTaskExecutor(
          Thread.ofVirtual().name("nps-southbound-callback-", 0).factory());
  private final Object registry = new Object();
  private final Map<Long, SwitchConnection> connected = new ConcurrentHashMap<>();
  private final Map<Long, SerialExecutor> executors = new ConcurrentHashMap<>();
  private final Set<SwitchConnection> all = ConcurrentHashMap.newKeySet();

  /** TLS handshakes in turns while the controller is slow, so begun ones finish (TlsTurn). */
  private final HandshakeLag tlsLag = new HandshakeLag(ServerConfig.TLS_SLOW_FLIGHT);

  private final HandshakeTurns<TlsTurn> tlsTurns =
      new HandshakeTurns<>(
          ServerConfig.TLS_HANDSHAKES_AT_ONCE,
          ServerConfig.TLS_WAITING_PER_SOURCE,
          ServerConfig.TLS_WAITING);

  /** Live dpids whose duplicate claim was logged: later ones are only counted. */
  private final Set<Long> refusalLogged = ConcurrentHashMap.newKeySet();

  private final EventLoopGroup shared;
  private EventLoopGroup group;
  private Channel serverChannel;

  /** {@code shared}: the user's group to serve on (not shut down here), or null for its own. */
  NettyOpenFlowServer(ServerConfig config, DesiredStateStore desiredState, EventLoopGroup shared) {
    this.config = config;
    this.desiredState = desiredState;
    this.shared = shared;
    metrics.tlsTurnsWaitingFrom(tlsTurns::waiting);
  }

  /** Whether batch futures complete on the event loop (a shared group) rather than a callback. */
  boolean completesBatchesOnLoop() {
    return shared != null;
  }

  ServerConfig config() {
    return config;
  }

  @Override
  public SouthboundMetrics metrics() {
    return metrics;
  }

  @Override
  public DesiredStateStore desiredState() {
    return desiredState;
  }

  @Override
  public ServerState state() {
    return state.get();
  }

  @Override
  public OpenFlowServer start() throws IOException {
    if (!state.compareAndSet(ServerState.LATENT, ServerState.STARTED)) {
      throw new IllegalStateException("server can start only once, from LATENT: " + state.get());
    }
    SslContext tls = config.tls() == null ? null : config.tls().serverContext();
    group =
        shared != null
            ? shared
            : new NioEventLoopGroup(
                config.eventLoopThreads(), new DefaultThreadFactory("nps-of", true));
    ServerBootstrap b =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    if (tls != null) {
                      ch.pipeline()
                          .addLast(
                              "turn", new TlsTurn(tlsTurns, ServerConfig.TLS_TURN, metrics, tlsLag))
                          .addLast("tls", tls.newHandler(ch.alloc()));
                    }
                    ch.pipeline()
                        .addLast("frames", new OpenFlowFrameDecoder(config.maxMessageSize()))
                        .addLast("encoder", OpenFlowMessageEncoder.INSTANCE)
                        .addLast("switch", new SwitchConnection(NettyOpenFlowServer.this));
                  }
                });
    try {
      serverChannel = b.bind(config.bindAddress(), config.port()).sync().channel();
    } catch (Exception e) {
      close();
      throw new IOException(
          "cannot listen on " + config.bindAddress() + ":" + config.port() + ": " + e, e);
    }
    LOG.log(System.Logger.Level.DEBUG, "OpenFlow server listening on {0}", localAddress());
    return this;
  }

  @Override
  public InetSocketAddress localAddress() {
    if (serverChannel == null) {
      throw new IllegalStateException("server not started");
    }
    return (InetSocketAddress) serverChannel.localAddress();
  }

  @Override
  public Optional<SwitchHandle> switchHandle(long dpid) {
    return Optional.ofNullable(connected.get(dpid));
  }

  @Override
  public Collection<SwitchHandle> switches() {
    return List.copyOf(connected.values());
  }

  @Override
  public CompletableFuture<ReconcileResult> reconcile(long dpid) {
    SwitchConnection sw = connected.get(dpid);
    if (sw == null) {
      return CompletableFuture.failedFuture(
          new SwitchDisconnectedException(dpid, DisconnectReason.CLOSED_BY_SWITCH));
    }
    Optional<DesiredState> desired = desiredState.get(dpid);
    if (desired.isEmpty()) {
      return CompletableFuture.failedFuture(
          new IllegalStateException(
              "no desired state for switch " + SouthboundException.dpidString(dpid)));
    }
    return reconcile(dpid, desired.get(), desiredState.scope());
  }

  @Override
  public CompletableFuture<ReconcileResult> reconcile(
      long dpid, DesiredState desired, ReconcileScope scope) {
    SwitchConnection sw = connected.get(dpid);
    if (sw == null) {
      return CompletableFuture.failedFuture(
          new SwitchDisconnectedException(dpid, DisconnectReason.CLOSED_BY_SWITCH));
    }
    return ReconcileTask.run(sw, desired, scope)
        .whenComplete(
            (r, e) -> {
              if (e == null) {
                metrics.reconciled(r.plan().mods().size());
              } else {
                metrics.reconcileFailed();
              }
            });
  }

  // ---- called by connections (their event loops) ----

  void track(SwitchConnection c) {
    all.add(c);
    if (state.get() == ServerState.CLOSED) {
      c.close(DisconnectReason.CLOSED_BY_CONTROLLER);
    }
  }

  /**
   * A connection finished its handshake and claims its dpid (on its event loop). With no live
   * connection of that dpid it is registered at once. Otherwise the live one is probed with an
   * echo: if it answers, the claimant is refused ({@link DisconnectReason#DUPLICATE_DPID}, logged
   * once per live switch, counted); if not, the claimant replaces it (a reconnect whose old
   * connection died silently). {@code probed} is the connection that just failed its probe, else
   * null.
   */
  void claim(SwitchConnection c, SwitchConnection probed) {
    if (c.isClosed()) {
      return;
    }
    long dpid = c.dpid();
    if (probed == null && config.tls() != null && !certifiedFor(c)) {
      return;
    }
    SwitchConnection live = connected.get(dpid);
    if (live != null && live != probed && live.isConnected()) {
      live.probe(probeTimeout())
          .thenAccept(
              alive ->
                  c.onEventLoop(
                      () -> {
                        if (alive) {
                          refuse(c, live);
                        } else {
                          claim(c, live);
                        }
                      }));
      return;
    }
    SwitchEvents events = register(c, live);
    if (events == null) {
      claim(c, null); // another connection took the dpid meanwhile: probe that one
    } else {
      c.registered();
    }
  }

  /** True if the switch's certificate may claim its dpid; else closes it (logged, counted). */
  private boolean certifiedFor(SwitchConnection c) {
    Optional<String> name = c.peerCommonName();
    if (name.isPresent() && config.tls().identities().allows(name.get(), c.dpid())) {
      return true;
    }
    LOG.log(
        System.Logger.Level.WARNING,
        "{0}: refused, its certificate (CN={1}) may not claim this datapath id",
        c,
        name.orElse("none"));
    c.close(DisconnectReason.CERTIFICATE_MISMATCH);
    return false;
  }

  /** How long a live connection has to answer the echo that decides a competing claim. */
  private Duration probeTimeout() {
    Duration half = config.handshakeTimeout().dividedBy(2);
    return config.echoInterval().compareTo(half) < 0 ? config.echoInterval() : half;
  }

  private void refuse(SwitchConnection c, SwitchConnection live) {
    if (c.isClosed()) {
      return;
    }
    if (refusalLogged.add(c.dpid())) {
      LOG.log(
          System.Logger.Level.WARNING,
          "{0}: refused, its datapath id belongs to the live {1}, which answered its echo; further"
              + " refusals for this switch are only counted (nps_openflow_disconnects_total"
              + "'{'reason=\"duplicate_dpid\"'}')",
          c,
          live);
    }
    c.close(DisconnectReason.DUPLICATE_DPID);
  }

  /**
   * Registers {@code c} under its dpid if the registered connection is still {@code expected} (or
   * none), replacing it; null if another one took the dpid meanwhile.
   */
  private SwitchEvents register(SwitchConnection c, SwitchConnection expected) {
    long dpid = c.dpid();
    SerialExecutor executor =
        executors.computeIfAbsent(dpid, k -> new SerialExecutor(callbackThreads));
    SwitchEvents events = new SwitchEvents(c, executor, config.listener(), metrics);
    SwitchConnection old;
    synchronized (registry) {
      old = connected.get(dpid);
      if (old != null && old != expected) {
        return null;
      }
      c.prepare(events);
      connected.put(dpid, c);
      refusalLogged.remove(dpid);
      if (old != null) {
        events.fire(l -> l.switchDisconnected(dpid, DisconnectReason.REPLACED));
      }
    }
    if (old != null) {
      old.disconnectReplaced();
    }
    return events;
  }

  /**
   * After {@code switchConnected}: restores the desired state, if there is one and the server
   * reconciles on connect.
   */
  void connectedAndAnnounced(SwitchConnection c, SwitchEvents events) {
    long dpid = c.dpid();
    if (!config.reconcileOnConnect() || !desiredState.contains(dpid)) {
      return;
    }
    reconcile(dpid)
        .whenCompleteAsync(
            (r, e) -> {
              if (e == null) {
                events.fire(l -> l.switchReconciled(dpid, r));
              } else {
                Throwable cause =
                    e instanceof java.util.concurrent.CompletionException ce ? ce.getCause() : e;
                LOG.log(System.Logger.Level.WARNING, c + ": reconcile failed: " + cause);
                events.fire(l -> l.reconcileFailed(dpid, cause));
              }
            },
            events.executor());
  }

  void closed(SwitchConnection c, boolean wasConnected, DisconnectReason reason) {
    all.remove(c);
    if (!wasConnected) {
      return;
    }
    long dpid = c.dpid();
    synchronized (registry) {
      if (connected.remove(dpid, c)) {
        refusalLogged.remove(dpid);
        SerialExecutor executor = executors.get(dpid);
        new SwitchEvents(c, executor, config.listener(), metrics)
            .fire(l -> l.switchDisconnected(dpid, reason));
      }
    }
  }

  @Override
  public void close() {
    ServerState before = state.getAndSet(ServerState.CLOSED);
    if (before == ServerState.CLOSED) {
      return;
    }
    for (SwitchConnection c : List.copyOf(all)) {
      c.closeAndWait(DisconnectReason.CLOSED_BY_CONTROLLER);
    }
    if (serverChannel != null) {
      serverChannel.close().syncUninterruptibly();
    }
    if (group != null && group != shared) {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
    callbackThreads.shutdown();
    try {
      // Let queued events (the disconnects) reach the listener; never wait on a stuck one long.
      callbackThreads.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
