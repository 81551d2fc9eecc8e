package org.netpubsub.controller.southbound;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
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
 * backed by virtual threads.
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
  private EventLoopGroup group;
  private Channel serverChannel;

  NettyOpenFlowServer(ServerConfig config, DesiredStateStore desiredState) {
    this.config = config;
    this.desiredState = desiredState;
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
    group =
        new NioEventLoopGroup(config.eventLoopThreads(), new DefaultThreadFactory("nps-of", true));
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

  /** Registers a connection that finished its handshake; replaces an older one of its dpid. */
  SwitchEvents handshakeComplete(SwitchConnection c) {
    long dpid = c.dpid();
    SerialExecutor executor =
        executors.computeIfAbsent(dpid, k -> new SerialExecutor(callbackThreads));
    SwitchEvents events = new SwitchEvents(c, executor, config.listener(), metrics);
    SwitchConnection old;
    synchronized (registry) {
      old = connected.put(dpid, c);
      if (old != null) {
        events.fire(l -> l.switchDisconnected(dpid, DisconnectReason.REPLACED));
      }
    }
    if (old != null) {
      old.disconnectReplaced();
    }
    return events;
  }

  /** After {@code switchConnected}: restores the desired state, if there is one. */
  void connectedAndAnnounced(SwitchConnection c, SwitchEvents events) {
    long dpid = c.dpid();
    if (desiredState.get(dpid).isEmpty()) {
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
    if (group != null) {
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
