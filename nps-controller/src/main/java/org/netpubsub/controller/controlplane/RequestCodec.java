package org.netpubsub.controller.controlplane;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.network.controlplane.ControlRequest;

/**
 * A control request as the JSON bytes stored in ZooKeeper: {@code {"kind","id","host","port",
 * "cells":["0101",…]}} (the empty string is the whole space), and on a standing addition the
 * submitter's {@code "labels":{…}}. Unreadable bytes are an {@link IllegalArgumentException} naming
 * what is wrong. Public for the readers of {@code ROOT/requests} outside this package (the
 * cluster's ingress writer, pubsub.ClusterIngress).
 */
public final class RequestCodec {
  private static final ObjectMapper JSON = new ObjectMapper();

  private RequestCodec() {}

  static byte[] encode(ControlRequest r) {
    return encode(r, Map.of());
  }

  /** With labels: what the submitter wants shown at other processes (a filter as written). */
  static byte[] encode(ControlRequest r, Map<String, String> labels) {
    ObjectNode n = JSON.createObjectNode();
    n.put("kind", r.kind().name());
    n.put("id", r.id());
    n.put("host", r.host().toString());
    n.put("port", r.udpPort());
    var cells = n.putArray("cells");
    r.cells().forEach(dz -> cells.add(dz.bits()));
    if (!labels.isEmpty()) {
      ObjectNode l = n.putObject("labels");
      labels.forEach(l::put);
    }
    return n.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The labels stored with a request (none if there are none). */
  static Map<String, String> labels(byte[] bytes) {
    try {
      JsonNode l = JSON.readTree(bytes).get("labels");
      Map<String, String> out = new TreeMap<>();
      if (l != null) {
        l.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
      }
      return out;
    } catch (IOException e) {
      throw new IllegalArgumentException("unreadable control request: " + e.getMessage(), e);
    }
  }

  /** Where the standing additions of the cluster under {@code root} are ({@code ROOT/requests}). */
  public static String requests(String root) {
    return new ClusterLayout(root).requests();
  }

  public static ControlRequest decode(byte[] bytes) {
    try {
      JsonNode n = JSON.readTree(bytes);
      List<Dz> cells = new ArrayList<>();
      n.required("cells").forEach(c -> cells.add(Dz.parse(c.asText())));
      return new ControlRequest(
          ControlRequest.Kind.valueOf(n.required("kind").asText()),
          n.required("id").asText(),
          Ipv6Address.parse(n.required("host").asText()),
          n.required("port").asInt(),
          DzSet.of(cells));
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("unreadable control request: " + e.getMessage(), e);
    }
  }
}
