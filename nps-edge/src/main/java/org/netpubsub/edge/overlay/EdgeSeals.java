package org.netpubsub.edge.overlay;

import java.net.DatagramPacket;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.DatagramLink;
import org.netpubsub.edge.link.Datagrams;
import org.netpubsub.edge.link.DerivedKeys;

/**
 * Which key seals an overlay edge broker's datagram for its destination and which keys open what
 * arrives (docs/security.md, "Per-edge keys"). Two kinds of edge:
 *
 * <ul>
 *   <li>one holding the deployment keys (the default) signs with them, as ever; it opens datagrams
 *       under them, under its own derived key, under the derived key of the origin a message names
 *       (a routing broker relays an own-key edge's datagram with that edge's tag) and under the key
 *       of the own-key edge registered at the source address (that edge's NACKs and direct
 *       datagrams). What it sends to an own-key edge's address is sealed under that edge's key.
 *   <li>one holding its own key only ({@link OwnKeyOnly}) signs with it; it opens datagrams under
 *       it (what routing brokers re-seal for it, and what deployment-key edges send it directly)
 *       and under the key it shares with the own-key edge registered at the source address.
 * </ul>
 *
 * A datagram opened under another edge's key (derived or shared) is accepted only if it is no
 * message or its origin is that edge: no edge's key makes a message in a third edge's name. Where
 * own-key edges are comes from the edge's overlay view ({@link #observe}), at most {@link
 * #MAX_PEERS} addresses, replaced with every view (entries that left are forgotten); edges holding
 * the deployment keys are not kept at all, so in a default deployment (no own-key edge) sealing is
 * one look-up in an empty map and opening one HMAC under the deployment keys, as before per-edge
 * keys. A message naming a revoked edge ({@link #revoke}) as its origin is refused whatever its
 * key, as a routing broker refuses it ({@link OriginCheck}); while none is, nothing is read for it.
 * Thread-safe; {@link #open} and {@link #refusal} are the receiver thread's.
 */
final class EdgeSeals implements DatagramLink.Sealer, Datagrams.Opener {
  /** Own-key edges' addresses held from a view. */
  static final int MAX_PEERS = 4096;

  /** An edge that holds its own key only (the others sign and open with the deployment keys). */
  private record Peer(String edge) {}

  private final String edge;
  private final DatagramAuth signing;
  private final DatagramAuth mine;
  private final DerivedKeys derived; // null for an own-key edge
  private final Map<String, DatagramAuth> pairs; // empty for a deployment-key edge
  private volatile Map<InetSocketAddress, Peer> peers = Map.of();
  private volatile Set<String> revoked = Set.of();
  private String refusal = "unauthenticated";

  /** {@code ownKey}: null when {@code auth} holds the deployment keys. */
  EdgeSeals(DatagramAuth auth, String edge, OwnKeyOnly ownKey) {
    this.edge = edge;
    this.signing = auth;
    this.mine = ownKey == null ? auth.forEdge(edge) : auth;
    this.derived = ownKey == null ? new DerivedKeys(auth, DerivedKeys.MAX_EDGES) : null;
    this.pairs = ownKey == null ? Map.of() : ownKey.pairs();
  }

  boolean ownKeyOnly() {
    return derived == null;
  }

  /** The sealer for the link (null: datagrams are not authenticated). */
  DatagramLink.Sealer sealer() {
    return signing.secure() ? this : null;
  }

  /** Own-key edges' addresses held now (tests). */
  int peerCount() {
    return peers.size();
  }

  /** From now on refuses every message naming one of {@code edges} as its origin. */
  void revoke(Set<String> edges) {
    revoked = Set.copyOf(edges);
  }

  /** Why the last {@link #open} refused: a counter name. */
  String refusal() {
    return refusal;
  }

  /** Learns where the edges are from a view of the overlay (those no longer in it are dropped). */
  synchronized void observe(OverlayView v) {
    Map<InetSocketAddress, Peer> out = new HashMap<>();
    v.topics().values().forEach(t -> add(t, out));
    peers = Map.copyOf(out);
  }

  /**
   * Learns the edges of topic {@code t} now, before the view shows them: a topic's first messages
   * go out on the topic as loaded, and their direct copies must be sealed for an own-key edge's key
   * already. Copies the addresses only when {@code t} holds one not known yet.
   */
  void learn(TopicState t) {
    Map<InetSocketAddress, Peer> now = peers;
    for (Map<String, Endpoint> m : java.util.List.of(t.publishers(), t.subscribers())) {
      for (Map.Entry<String, Endpoint> e : m.entrySet()) {
        if (!e.getValue().ownKey() || e.getKey().equals(edge)) {
          continue;
        }
        if (!new Peer(e.getKey()).equals(now.get(e.getValue().address()))) {
          synchronized (this) {
            Map<InetSocketAddress, Peer> out = new HashMap<>(peers);
            add(t, out);
            peers = Map.copyOf(out);
          }
          return;
        }
      }
    }
  }

  private void add(TopicState t, Map<InetSocketAddress, Peer> out) {
    for (Map<String, Endpoint> m : java.util.List.of(t.publishers(), t.subscribers())) {
      for (Map.Entry<String, Endpoint> e : m.entrySet()) {
        if (out.size() < MAX_PEERS && e.getValue().ownKey() && !e.getKey().equals(edge)) {
          out.put(e.getValue().address(), new Peer(e.getKey()));
        }
      }
    }
  }

  @Override
  public int seal(byte[] buf, int off, int len, InetSocketAddress to) {
    Peer p = peers.get(to);
    if (p == null) {
      return signing.seal(buf, off, len); // a routing broker, or an edge holding the deployment's
    }
    if (derived != null) {
      return derived.of(p.edge()).seal(buf, off, len);
    }
    DatagramAuth shared = pairs.get(p.edge());
    // without a shared key it cannot open this: refused and counted there
    return (shared != null ? shared : signing).seal(buf, off, len);
  }

  @Override
  public int open(byte[] buf, int off, int len, DatagramPacket packet) {
    if (!signing.secure()) {
      return len;
    }
    Set<String> revokedNow = revoked;
    if (!revokedNow.isEmpty()) {
      String claimed =
          OriginCheck.origin(buf, off, len); // null: no message (contains(null) throws)
      if (claimed != null && revokedNow.contains(claimed)) {
        refusal = "revoked_origin";
        return -1;
      }
    }
    refusal = "unauthenticated";
    int body = mine.open(buf, off, len);
    if (body >= 0) {
      return body;
    }
    String origin = OriginCheck.origin(buf, off, len);
    if (derived != null && origin != null && !origin.equals(edge)) {
      body = derived.open(origin, buf, off, len); // relayed with an own-key origin's tag
      if (body >= 0) {
        return body;
      }
    }
    Map<InetSocketAddress, Peer> known = peers;
    Peer p =
        known.isEmpty() ? null : known.get(packet.getSocketAddress()); // none made in a default one
    if (p == null || origin != null && !origin.equals(p.edge())) {
      return -1;
    }
    DatagramAuth k = derived != null ? derived.held(p.edge()) : pairs.get(p.edge());
    if (derived != null && k == null) {
      return derived.open(p.edge(), buf, off, len);
    }
    return k == null ? -1 : k.open(buf, off, len);
  }
}
