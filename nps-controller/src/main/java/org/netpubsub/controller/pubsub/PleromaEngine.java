package org.netpubsub.controller.pubsub;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.FlowModCommand;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.pleroma.Advertisement;
import org.netpubsub.network.pleroma.ConfigurationDelta;
import org.netpubsub.network.pleroma.Configurator;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.pleroma.Subscription;
import org.netpubsub.network.topology.Topology;

/**
 * PLEROMA (docs/pubsub.md): the configurator's content flows on the central spanning tree. Its
 * flows match events sent to one UDP port: {@link ContentFlows#EVENT_PORT}, or the other port of an
 * online layout switch ({@link IndexVersion}), which keeps two layouts' flows disjoint.
 */
final class PleromaEngine implements LoopRouting {
  private Configurator configurator;
  private final int eventPort;

  PleromaEngine() {
    this(Configurator.on(Topology.EMPTY), ContentFlows.EVENT_PORT);
  }

  private PleromaEngine(Configurator configurator, int eventPort) {
    this.configurator = configurator;
    this.eventPort = eventPort;
  }

  @Override
  public LoopRouting emptyOnPort(int port) {
    return new PleromaEngine(Configurator.on(configurator.topology()), port);
  }

  @Override
  public String name() {
    return "pleroma";
  }

  @Override
  public void topologyChanged(Topology next) {
    if (!next.equals(configurator.topology())) {
      configurator = configurator.rebuiltOn(next);
    }
  }

  @Override
  public String notReady() {
    return configurator.tree().isEmpty() ? "no switch is connected yet" : null;
  }

  @Override
  public Effect add(PubSubRequest r) {
    if (configurator.topology().host(r.host()).isEmpty()) {
      throw RoutingEngine.unknownHost(r.host());
    }
    return effect(
        r.kind() == PubSubRequest.Kind.ADVERTISEMENT
            ? configurator.advertise(new Advertisement(r.id(), r.host(), r.cells()))
            : configurator.subscribe(new Subscription(r.id(), r.host(), r.port(), r.cells())));
  }

  @Override
  public Effect remove(PubSubRequest r) {
    return effect(
        r.kind() == PubSubRequest.Kind.ADVERTISEMENT
            ? configurator.unadvertise(r.id())
            : configurator.unsubscribe(r.id()));
  }

  /**
   * The configurator again with the stored requests, advertisements first, on the topology known
   * now; the next topology change replays them on its tree ({@link Configurator#rebuiltOn}). Its
   * flows depend on which requests stand, not on their order (ConfiguratorRequestOrderProperties).
   */
  @Override
  public void restore(List<PubSubRequest> standing) {
    List<Advertisement> ads = new ArrayList<>();
    List<Subscription> subs = new ArrayList<>();
    for (PubSubRequest r : standing) {
      if (r.kind() == PubSubRequest.Kind.ADVERTISEMENT) {
        ads.add(new Advertisement(r.id(), r.host(), r.cells()));
      } else {
        subs.add(new Subscription(r.id(), r.host(), r.port(), r.cells()));
      }
    }
    configurator = Configurator.restored(configurator.topology(), ads, subs);
  }

  @Override
  public List<FlowEntry> flows(long dpid) {
    List<FlowEntry> flows = configurator.flows(dpid);
    return eventPort == ContentFlows.EVENT_PORT
        ? flows
        : flows.stream().map(e -> e.toBuilder().match(onPort(e.match())).build()).toList();
  }

  @Override
  public List<FlowEntry> guards(long dpid) {
    return configurator.topology().switches().contains(dpid)
        ? List.of(ContentFlows.guard(eventPort))
        : List.of();
  }

  /**
   * One non-strict delete per switch: every content flow on this routing's event port (guard too).
   */
  @Override
  public List<FlowMod> retirement(long dpid) {
    return List.of(
        FlowMod.builder(FlowModCommand.DELETE)
            .table(ContentFlows.TABLE)
            .priority(ContentFlows.PRIORITY_BASE) // ignored by a non-strict delete
            .cookie(ContentFlows.COOKIE, -1L)
            .match(Match.builder().udp6().udpDst(eventPort).build())
            .build());
  }

  private Effect effect(ConfigurationDelta delta) {
    SortedMap<Long, List<SwitchMod>> mods = new TreeMap<>(delta.flowMods().comparator());
    delta
        .flowMods()
        .forEach(
            (dpid, l) ->
                mods.put(
                    dpid,
                    SwitchMod.flows(
                        eventPort == ContentFlows.EVENT_PORT
                            ? l
                            : l.stream().map(this::onPort).toList())));
    return new Effect(mods, delta.paths());
  }

  private Match onPort(Match m) {
    return m.toBuilder().udpDst(eventPort).build();
  }

  private FlowMod onPort(FlowMod m) {
    return new FlowMod(
        m.command(),
        m.tableId(),
        m.priority(),
        onPort(m.match()),
        m.instructions(),
        m.cookie(),
        m.cookieMask(),
        m.flags(),
        m.idleTimeout(),
        m.hardTimeout(),
        m.outPort(),
        m.outGroup(),
        m.bufferId());
  }
}
