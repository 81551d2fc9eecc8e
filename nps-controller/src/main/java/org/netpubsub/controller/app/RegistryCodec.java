package org.netpubsub.controller.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.multicast.GroupSpec;
import org.netpubsub.network.multicast.TreeStrategy;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;

/**
 * Hosts registered by hand and multicast groups as the JSON bytes {@link ClusterRegistry} keeps in
 * ZooKeeper, and their znode names. A host is {@code {"address","mac","dpid","port"}} (dpid in hex)
 * under its address; a group is {@code {"name","members","sources","strategy"}} under its name
 * URL-encoded (names may hold slashes). Unreadable bytes are an {@link IllegalArgumentException}.
 */
final class RegistryCodec {
  private RegistryCodec() {}

  static byte[] host(Host h) {
    ObjectNode n = GroupJson.JSON.createObjectNode();
    n.put("address", h.address().toString());
    n.put("mac", h.mac().toString());
    n.put("dpid", Long.toHexString(h.attachment().dpid()));
    n.put("port", h.attachment().port());
    return n.toString().getBytes(StandardCharsets.UTF_8);
  }

  static Host host(byte[] bytes) {
    try {
      JsonNode n = GroupJson.JSON.readTree(bytes);
      return new Host(
          Ipv6Address.parse(n.required("address").asText()),
          MacAddress.parse(n.required("mac").asText()),
          new SwitchPort(
              Long.parseUnsignedLong(n.required("dpid").asText(), 16),
              n.required("port").asLong()));
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("unreadable host: " + e.getMessage(), e);
    }
  }

  static String hostNode(Ipv6Address address) {
    return address.toString();
  }

  static byte[] group(GroupSpec g) {
    ObjectNode n = GroupJson.JSON.createObjectNode();
    n.put("name", g.name());
    ArrayNode members = n.putArray("members");
    g.members().forEach(a -> members.add(a.toString()));
    ArrayNode sources = n.putArray("sources");
    g.sources().forEach(a -> sources.add(a.toString()));
    n.put("strategy", g.strategy().name());
    return n.toString().getBytes(StandardCharsets.UTF_8);
  }

  static GroupSpec group(byte[] bytes) {
    try {
      JsonNode n = GroupJson.JSON.readTree(bytes);
      return GroupSpec.of(
          n.required("name").asText(),
          addresses(n.required("members")),
          addresses(n.required("sources")),
          TreeStrategy.valueOf(n.required("strategy").asText()));
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("unreadable group: " + e.getMessage(), e);
    }
  }

  /** The znode name of a group: its name URL-encoded, with "." and ".." escaped as well. */
  static String groupNode(String name) {
    String encoded = URLEncoder.encode(name, StandardCharsets.UTF_8);
    return encoded.equals(".") || encoded.equals("..") ? encoded.replace(".", "%2E") : encoded;
  }

  static String groupName(String node) {
    return URLDecoder.decode(node, StandardCharsets.UTF_8);
  }

  private static Set<Ipv6Address> addresses(JsonNode array) {
    Set<Ipv6Address> out = new TreeSet<>();
    array.forEach(a -> out.add(Ipv6Address.parse(a.asText())));
    return out;
  }
}
