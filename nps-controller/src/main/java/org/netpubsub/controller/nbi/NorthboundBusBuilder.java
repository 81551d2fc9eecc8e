package org.netpubsub.controller.nbi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.netpubsub.network.nbi.NbiTopic;
import org.netpubsub.network.nbi.PacketInView;
import org.netpubsub.network.nbi.ReplyRule;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.topology.Topology;

/** A {@link NorthboundBus}'s settings; apps must have distinct names. */
public final class NorthboundBusBuilder {
  DistributionMode mode = DistributionMode.CLASSIFIED;
  final Map<String, ControllerApp> apps = new LinkedHashMap<>();
  final List<NbiTopic> forAll = new ArrayList<>();
  ReplyRule replyRule = ReplyRule.NONE;
  BiConsumer<PacketInView, AppContext> coreReply = (in, core) -> {};
  Topology topology;
  int queueCapacity = 1024;
  BiConsumer<Long, FlowMod> flowSink;
  RemoteAppEndpoints remote;
  RemoteAppKeys remoteKeys;
  RemoteAppLeases.Limits remoteLimits = RemoteAppLeases.Limits.DEFAULT;
  boolean missesReachController;

  public NorthboundBusBuilder mode(DistributionMode m) {
    this.mode = m;
    return this;
  }

  public NorthboundBusBuilder app(ControllerApp app) {
    if (apps.putIfAbsent(app.name(), app) != null) {
      throw new IllegalArgumentException("two apps are named " + app.name());
    }
    return this;
  }

  /** Packet-ins every app gets whatever its topics (Algorithm 1, FOR_ALL). */
  public NorthboundBusBuilder forAll(NbiTopic topic) {
    forAll.add(topic);
    return this;
  }

  /** The REPLY set and how the core answers a packet-in in it. */
  public NorthboundBusBuilder reply(ReplyRule rule, BiConsumer<PacketInView, AppContext> answer) {
    this.replyRule = rule;
    this.coreReply = answer;
    return this;
  }

  /** The known topology: turns on the invariant check and port liveness. */
  public NorthboundBusBuilder topology(Topology t) {
    this.topology = t;
    return this;
  }

  /**
   * The switches send table misses to the controller (reactive forwarding): the invariant checker
   * then takes a switch without a rule for no black hole (default: false).
   */
  public NorthboundBusBuilder missesReachController(boolean yes) {
    this.missesReachController = yes;
    return this;
  }

  /**
   * Where checked flow-mods go instead of straight to the switch: a controller that keeps desired
   * state takes them into it (default: none).
   */
  public NorthboundBusBuilder flowSink(BiConsumer<Long, FlowMod> sink) {
    this.flowSink = sink;
    return this;
  }

  /** Events queued per app before producers wait (default 1024). */
  public NorthboundBusBuilder queueCapacity(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("queue capacity must be positive: " + n);
    }
    this.queueCapacity = n;
    return this;
  }

  /**
   * Takes remote apps over ZeroMQ on these endpoints, bound by {@link #build} (e.g. {@link
   * RemoteAppEndpoints#loopback()}). Their packet-ins wait in one queue of {@link #queueCapacity}
   * messages before the publisher.
   */
  public NorthboundBusBuilder remoteApps(RemoteAppEndpoints bindTo) {
    return remoteApps(bindTo, null);
  }

  /**
   * As {@link #remoteApps(RemoteAppEndpoints)}, authenticated: with {@code keys} every endpoint is
   * a CURVE server that admits only the keys' clients, each acting as its own apps only
   * (docs/security.md). Null keys: anyone who reaches the endpoints is admitted.
   */
  public NorthboundBusBuilder remoteApps(RemoteAppEndpoints bindTo, RemoteAppKeys keys) {
    this.remote = bindTo;
    this.remoteKeys = keys;
    return this;
  }

  /**
   * Caps on remote apps and their topics, and the silence after which a registration expires
   * (default {@link RemoteAppLeases.Limits#DEFAULT}); tests choose small ones.
   */
  NorthboundBusBuilder remoteLimits(RemoteAppLeases.Limits limits) {
    this.remoteLimits = limits;
    return this;
  }

  /**
   * The bus, its app threads started and its remote endpoints bound.
   *
   * @throws IllegalStateException if a remote endpoint cannot be bound
   */
  public NorthboundBus build() {
    return new NorthboundBus(this);
  }
}
