package org.netpubsub.controller.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;
import org.netpubsub.controller.app.GroupJson;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * The answer of {@code GET /v1/topology}: a pure function of everything it shows, the topology
 * (switches and their ports, links, hosts) and the set of connected switches. {@link
 * org.netpubsub.http.CachedJson} keeps its bytes while both are unchanged.
 */
record TopologyJson(Topology topology, Set<Long> connected) {
  ObjectNode render() {
    ObjectNode root = GroupJson.JSON.createObjectNode();
    ArrayNode switches = root.putArray("switches");
    for (long dpid : topology.switches()) {
      ObjectNode s = switches.addObject().put("dpid", GroupJson.dpid(dpid));
      s.put("connected", connected.contains(dpid));
      ArrayNode ports = s.putArray("ports");
      topology.ports(dpid).forEach(ports::add);
    }
    ArrayNode links = root.putArray("links");
    for (Link l : topology.links()) {
      ObjectNode o = links.addObject();
      end(o.putObject("a"), l.a());
      end(o.putObject("b"), l.b());
    }
    ArrayNode hosts = root.putArray("hosts");
    for (Host h : topology.hosts().values()) {
      ObjectNode o = hosts.addObject().put("address", h.address().toString());
      o.put("mac", h.mac().toString());
      end(o, h.attachment());
    }
    return root;
  }

  /** A switch port as {@code "dpid"} and {@code "port"} fields of {@code o}. */
  static void end(ObjectNode o, SwitchPort p) {
    o.put("dpid", GroupJson.dpid(p.dpid())).put("port", p.port());
  }
}
