package org.netpubsub.edge.coordinator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.EdgeKeys;

/**
 * The answer to {@code GET /v1/edges/{name}/keys?own=true} (docs/security-datagrams.md, "Per-agent
 * keys from the coordinator"): edge {@code name}'s own keys ({@link EdgeKeys#derive}, one per
 * deployment key, the first signing), the own keys of its senders, and the revoked edges.
 *
 * <p>The senders are <em>every registered edge that is not revoked</em>, not only those whose
 * region meets the receiver's subscriptions: a SNAPS agent reports its subscribers' filters only,
 * and any client at any edge may publish on any topic, so the coordinator cannot know who will send
 * to whom; leaving an edge out would refuse its legitimate events at the next refresh. The price is
 * written down in the docs: a receiver holds every registered sender's key and so can sign as any
 * of them (a MAC key checks and makes alike).
 *
 * <p>Derived keys are kept per edge while the deployment keys are unchanged (two HMACs per key and
 * edge otherwise, for every edge at every refresh of every agent), at most {@link #MAX_CACHED}
 * edges: names come only from registered edges (capped) and the asker, who is authenticated.
 * Thread-safe.
 */
final class AgentKeyAnswers {
  static final int MAX_CACHED = 2 * CoordinatorCaps.DEFAULT.edges();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HexFormat HEX = HexFormat.of();

  private final Map<String, List<String>> derived = new HashMap<>(); // edge -> hex keys
  private List<byte[]> masters = List.of(); // what `derived` was derived from

  /**
   * The answer for {@code edge} under the deployment keys {@code keys}, the edges registered now
   * and the revoked ones; the caller has checked that the asker may act as {@code edge} and that
   * {@code edge} is not revoked.
   */
  synchronized ObjectNode answer(
      String edge, List<byte[]> keys, Collection<String> registered, Set<String> revoked) {
    if (!DatagramAuth.sameKeys(keys, masters)) {
      derived.clear();
      masters = keys;
    }
    ObjectNode o = JSON.createObjectNode().put("edge", edge);
    hex(o.putArray("keys"), edge);
    ArrayNode senders = o.putArray("senders");
    for (String s : new TreeSet<>(registered)) {
      if (!s.equals(edge) && !revoked.contains(s)) {
        ObjectNode n = senders.addObject().put("edge", s);
        hex(n.putArray("keys"), s);
      }
    }
    ArrayNode r = o.putArray("revoked");
    new TreeSet<>(revoked).forEach(r::add);
    return o;
  }

  private void hex(ArrayNode into, String edge) {
    if (derived.size() >= MAX_CACHED && !derived.containsKey(edge)) {
      derived.clear(); // only if edges came and went by thousands: derived again on demand
    }
    derived
        .computeIfAbsent(
            edge, e -> EdgeKeys.derive(masters, e).stream().map(HEX::formatHex).toList())
        .forEach(into::add);
  }
}
