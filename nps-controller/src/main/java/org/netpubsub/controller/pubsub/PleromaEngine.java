package org.netpubsub.controller.pubsub;

import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.pleroma.Advertisement;
import org.netpubsub.network.pleroma.ConfigurationDelta;
import org.netpubsub.network.pleroma.Configurator;
import org.netpubsub.network.pleroma.Subscription;
import org.netpubsub.network.topology.Topology;

/** PLEROMA (docs/pubsub.md): the configurator's content flows on the central spanning tree. */
final class PleromaEngine implements LoopRouting {
  private Configurator configurator = Configurator.on(Topology.EMPTY);

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

  @Override
  public List<FlowEntry> flows(long dpid) {
    return configurator.flows(dpid);
  }

  private static Effect effect(ConfigurationDelta delta) {
    SortedMap<Long, List<SwitchMod>> mods = new TreeMap<>(delta.flowMods().comparator());
    delta.flowMods().forEach((dpid, l) -> mods.put(dpid, SwitchMod.flows(l)));
    return new Effect(mods, delta.paths());
  }
}
