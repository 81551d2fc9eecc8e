package org.netpubsub.controller.app;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.multicast.MulticastGroups;
import org.netpubsub.network.multicast.GroupForwarding;
import org.netpubsub.network.multicast.TreeStrategy;

/**
 * Multicast groups as JSON, the same in {@code GET /v1/groups} and in what {@link ClusterRegistry}
 * publishes to ZooKeeper: a group's placement, and the snapshot of every group.
 */
public final class GroupJson {
  /** The mapper of the controller's JSON (REST answers and ZooKeeper data alike). */
  public static final ObjectMapper JSON = new ObjectMapper();

  private GroupJson() {}

  /** {@code GET /v1/groups}: every group, the segments installed, the links avoided. */
  public static ObjectNode snapshot(MulticastGroups.Snapshot s) {
    ObjectNode root = JSON.createObjectNode().put("segments", s.segments());
    ArrayNode all = root.putArray("groups");
    s.groups().forEach(p -> all.add(placement(p)));
    ArrayNode avoided = root.putArray("avoided_links");
    s.avoidedLinks()
        .forEach(
            l -> {
              ObjectNode o = avoided.addObject();
              o.putObject("a").put("dpid", dpid(l.a().dpid())).put("port", l.a().port());
              o.putObject("b").put("dpid", dpid(l.b().dpid())).put("port", l.b().port());
            });
    return root;
  }

  /** One group as embedded now: where each source sends, the hosts not known yet. */
  public static ObjectNode placement(GroupForwarding.Placement p) {
    ObjectNode o = JSON.createObjectNode().put("name", p.spec().name());
    o.put("strategy", p.spec().strategy() == TreeStrategy.DIRECT ? "direct" : "rp");
    ArrayNode members = o.putArray("members");
    p.spec().members().forEach(a -> members.add(a.toString()));
    ObjectNode sources = o.putObject("sources");
    for (Ipv6Address src : p.spec().sources()) {
      ObjectNode s = sources.putObject(src.toString());
      GroupForwarding.SourceEntry e = p.sources().get(src);
      if (e == null) {
        s.putNull("send_to"); // unknown source, or no member besides it
        s.put("segments", 0);
      } else {
        s.put("send_to", e.sendTo().toString());
        s.put("segments", e.segments());
        // the copies between the switches that replicate them (the hops are unicast routes)
        ArrayNode tree = s.putArray("tree");
        for (GroupForwarding.TreeEdge edge : e.tree()) {
          ObjectNode c = tree.addObject().put("from", dpid(edge.from())).put("to", dpid(edge.to()));
          if (edge.member() != null) {
            c.put("member", edge.member().toString());
          }
        }
      }
    }
    ArrayNode unknown = o.putArray("unknown_hosts");
    p.unknownHosts().forEach(a -> unknown.add(a.toString()));
    return o;
  }

  /** A datapath id as 16 hex digits. */
  public static String dpid(long dpid) {
    return String.format("%016x", dpid);
  }
}
