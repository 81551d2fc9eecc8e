package org.netpubsub.controller.pubsub;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.netpubsub.compiler.pipeline.Pipeline;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.filter.Filter;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.camus.CamusRouting;
import org.netpubsub.network.camus.Hierarchy;
import org.netpubsub.network.camus.LocalRules;
import org.netpubsub.network.camus.PacketSubscription;
import org.netpubsub.network.camus.RoutingPolicy;
import org.netpubsub.network.camus.RoutingUpdate;
import org.netpubsub.network.camus.openflow.OpenFlowPipeline;
import org.netpubsub.network.camus.openflow.QueryAddressLayout;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * Camus routing (docs/compiler.md): the subscriptions of every host become filter sets per switch
 * and port (Algorithm 1, MR or TR), each switch's local rules a compiled pipeline installed as
 * OpenFlow tables ({@link OpenFlowPipeline}), and a subscription change recompiles only the
 * switches whose sets hold the host, incrementally, and sends their diffs. Events carry their query
 * fields in the IPv6 destination ({@link QueryAddressLayout} of the schema's spec); advertisements
 * are recorded but route nothing — Camus filters every event at every switch.
 *
 * <p>The last hop rewrites a copy to each UDP port the host's subscribers listen on (address, MAC,
 * port, as PLEROMA does); subscribers of one host on different ports each check their exact filter.
 * Until the topology is a hierarchy (discovery still running, a host on a core switch) requests
 * wait with 503 and the switches hold no Camus flows.
 */
final class CamusEngine implements LoopRouting {
  private final RoutingPolicy policy;
  private final long alpha;
  private final Schema schema;
  private final QueryAddressLayout layout;
  private Topology topology = Topology.EMPTY;
  private CamusRouting routing; // null until the topology is a hierarchy
  private String notReady = "no switch is connected yet";
  private final Map<String, PubSubRequest> subscriptions = new LinkedHashMap<>();
  private final Map<Ipv6Address, TreeMap<Integer, Integer>> udpPorts = new HashMap<>();
  private final Map<Long, OpenFlowPipeline> pipelines = new HashMap<>();

  CamusEngine(Schema schema, RoutingPolicy policy, long alpha) {
    this.schema = schema;
    this.policy = policy;
    this.alpha = alpha;
    this.layout = QueryAddressLayout.of(MessageSpec.fromSchema(schema));
  }

  @Override
  public String name() {
    return "camus-" + policy.label();
  }

  @Override
  public void topologyChanged(Topology next) {
    if (next.equals(topology)) {
      return;
    }
    topology = next;
    pipelines.clear();
    Hierarchy h;
    try {
      h = Hierarchy.of(next);
    } catch (IllegalArgumentException e) {
      routing = null;
      notReady = "the topology is no hierarchy (yet): " + e.getMessage();
      return;
    }
    Map<Ipv6Address, List<PacketSubscription>> byHost = new HashMap<>();
    for (PubSubRequest r : subscriptions.values()) {
      if (h.hosts().contains(r.host())) {
        byHost.computeIfAbsent(r.host(), k -> new ArrayList<>()).add(parse(r));
      }
    }
    routing = CamusRouting.compile(h, layout.carried(), policy, alpha, byHost);
    for (long dpid : next.switches()) {
      pipelines.put(dpid, new OpenFlowPipeline(layout, config(h, dpid)));
    }
    notReady = null;
  }

  /** Its rules are compiled from {@code filter ∧ region}, not from the cells. */
  @Override
  public boolean coversByCells() {
    return false;
  }

  @Override
  public String notReady() {
    return notReady;
  }

  @Override
  public Owner owner() {
    return Owner.CAMUS_PIPELINE;
  }

  @Override
  public Effect add(PubSubRequest r) {
    if (r.kind() == PubSubRequest.Kind.ADVERTISEMENT) {
      return new Effect(new TreeMap<>(), 0);
    }
    if (!routing.hierarchy().hosts().contains(r.host())) {
      throw RoutingEngine.unknownHost(r.host());
    }
    PacketSubscription s = parse(r);
    boolean newPort =
        udpPorts.computeIfAbsent(r.host(), h -> new TreeMap<>()).merge(r.port(), 1, Integer::sum)
            == 1;
    RoutingUpdate u;
    try {
      u = routing.update(r.host(), List.of(s), List.of());
    } catch (IllegalArgumentException e) {
      release(r);
      throw new RequestRefusedException(new Refused.Invalid(e.getMessage()));
    }
    subscriptions.put(r.id(), r);
    return effect(u, newPort ? r.host() : null);
  }

  @Override
  public Effect remove(PubSubRequest r) {
    if (r.kind() == PubSubRequest.Kind.ADVERTISEMENT || subscriptions.remove(r.id()) == null) {
      return new Effect(new TreeMap<>(), 0);
    }
    boolean portGone = release(r);
    if (routing == null || !routing.hierarchy().hosts().contains(r.host())) {
      return new Effect(new TreeMap<>(), 0); // the host left with the topology: nothing installed
    }
    return effect(routing.update(r.host(), List.of(), List.of(r.id())), portGone ? r.host() : null);
  }

  @Override
  public void restore(List<PubSubRequest> standing) {
    for (PubSubRequest r : standing) {
      parse(r); // a stored filter this schema cannot read fails the start, not a later compile
      if (r.kind() == PubSubRequest.Kind.SUBSCRIPTION && subscriptions.put(r.id(), r) == null) {
        udpPorts.computeIfAbsent(r.host(), h -> new TreeMap<>()).merge(r.port(), 1, Integer::sum);
      }
    }
    topology = Topology.EMPTY; // the next topologyChanged compiles them in, on any topology
  }

  @Override
  public List<FlowEntry> flows(long dpid) {
    OpenFlowPipeline of = pipelines.get(dpid);
    return of == null ? List.of() : of.flows(routing.compilation(dpid).pipeline());
  }

  @Override
  public List<GroupEntry> groups(long dpid) {
    OpenFlowPipeline of = pipelines.get(dpid);
    return of == null ? List.of() : of.groups(routing.compilation(dpid).pipeline());
  }

  /** Forgets one subscriber on the request's UDP port; whether the port has none left. */
  private boolean release(PubSubRequest r) {
    TreeMap<Integer, Integer> ports = udpPorts.get(r.host());
    if (ports.merge(r.port(), -1, Integer::sum) > 0) {
      return false;
    }
    ports.remove(r.port());
    if (ports.isEmpty()) {
      udpPorts.remove(r.host());
    }
    return true;
  }

  /**
   * The messages of one update, per switch: groups created, groups whose last-hop bucket changed (a
   * host's subscriber ports), flows added, flows deleted, groups deleted.
   */
  private Effect effect(RoutingUpdate u, Ipv6Address portsChanged) {
    SortedMap<Long, List<SwitchMod>> mods = new TreeMap<>(SwitchPort.DPID_ORDER);
    SwitchPort at =
        portsChanged == null ? null : topology.host(portsChanged).orElseThrow().attachment();
    u.diffs()
        .forEach(
            (dpid, diff) -> {
              OpenFlowPipeline of = pipelines.get(dpid);
              Pipeline after = routing.compilation(dpid).pipeline();
              OpenFlowPipeline.Changes ch = of.changes(diff, after);
              List<SwitchMod> l = new ArrayList<>();
              ch.groupsAdded().forEach(g -> l.add(new SwitchMod.Group(g)));
              if (at != null && at.dpid() == dpid) {
                for (GroupEntry g : of.groupsWith(after, LocalRules.action(at.port()))) {
                  l.add(new SwitchMod.Group(GroupMod.modify(g)));
                }
              }
              ch.flowsAdded().forEach(f -> l.add(new SwitchMod.Flow(f)));
              ch.flowsDeleted().forEach(f -> l.add(new SwitchMod.Flow(f)));
              ch.groupsDeleted().forEach(g -> l.add(new SwitchMod.Group(g)));
              if (!l.isEmpty()) {
                mods.put(dpid, l);
              }
            });
    return new Effect(mods, 0);
  }

  private OpenFlowPipeline.Config config(Hierarchy h, long dpid) {
    return OpenFlowPipeline.Config.camus(
        List.copyOf(h.upPorts(dpid)), ContentFlows.EVENT_PORT, a -> bucket(dpid, a));
  }

  /** Towards a switch: out of the port. To a host: a rewritten copy per subscriber port. */
  private List<Action> bucket(long dpid, int port) {
    SwitchPort sp = new SwitchPort(dpid, port);
    for (Host h : topology.hosts().values()) {
      if (h.attachment().equals(sp)) {
        List<Action> out = new ArrayList<>();
        out.add(new Action.SetIpv6Dst(h.address()));
        out.add(new Action.SetEthDst(h.mac().value()));
        for (int udp : udpPorts.getOrDefault(h.address(), new TreeMap<>()).keySet()) {
          out.add(new Action.SetUdpDst(udp));
          out.add(Action.output(port));
        }
        return out;
      }
    }
    return List.of(Action.output(port));
  }

  /**
   * The subscription's rule: {@code filter ∧ region} when it was accepted under a principal's
   * subscribe region, so the pipeline never forwards to that host an event outside the region,
   * whatever its client asks for (docs/security.md). The text stays the filter as written.
   */
  private PacketSubscription parse(PubSubRequest r) {
    try {
      if (r.region().isEmpty()) {
        return PacketSubscription.parse(schema, r.id(), r.filter());
      }
      Filter cut =
          new Filter.And(
              List.of(
                  FilterParser.parse(schema, r.filter()),
                  FilterParser.parse(schema, r.region().get())));
      return new PacketSubscription(r.id(), r.filter(), Normalizer.toDnf(cut));
    } catch (InvalidInputException e) {
      throw new RequestRefusedException(new Refused.Invalid(e.render()));
    }
  }
}
