package org.netpubsub.edge.broker;

import java.net.DatagramPacket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.DatagramLink;
import org.netpubsub.edge.link.Datagrams;
import org.netpubsub.edge.link.DerivedKeys;
import org.netpubsub.edge.link.EdgeKeys;

/**
 * Which key seals an edge agent's datagram and which key opens what arrives
 * (docs/security-datagrams.md, "Per-agent keys (SNAPS)"). Every agent datagram names an edge at the
 * same place ({@link #named}): a message's origin, a control datagram's origin (the edge that sent
 * it, or for a NACK the edge asked). Its tag must verify under <em>that</em> edge's key. Two kinds
 * of agent:
 *
 * <ul>
 *   <li>one holding the deployment keys (the default) seals with them, as ever; it opens a datagram
 *       under them first (one HMAC, the old path's cost), then under the key derived for the edge
 *       it names ({@link DerivedKeys}: an own-key agent's datagram), and refuses every datagram
 *       naming a revoked edge whatever its key;
 *   <li>one holding its own key only ({@link #ownKey}) seals with the key of the edge a datagram
 *       names: its own, or for a NACK the asked sender's key; it opens a datagram only under the
 *       key of the edge it names: its own, or one of its {@code senders}' keys, the agents it
 *       receives from. A datagram naming an edge it holds no key of is refused.
 * </ul>
 *
 * So an agent holding its own key only cannot make any agent accept a datagram in the name of an
 * edge whose key it was not given. The senders' keys and the revoked edges are replaced while
 * datagrams flow ({@link #senders}, {@link #revoke}, {@link #revokedByCoordinator}; a reload or a
 * refresh). The receive loop is one thread: {@link #refusal} is the reason of its last refusal.
 * Sealing is thread-safe.
 */
final class AgentKeys implements DatagramLink.Sealer, Datagrams.Opener {
  /**
   * Senders' keys an own-key agent may hold (a file's or an answer's, held for the agent's life).
   */
  static final int MAX_SENDERS = 4096;

  private final String edge;
  private final byte[] edgeBytes;
  private final DatagramAuth auth; // the deployment keys, or the agent's own key
  private final DerivedKeys derived; // null for an own-key agent
  private volatile Map<String, DatagramAuth> senders; // null for a deployment-key agent
  private volatile Set<String> revoked = Set.of(); // the union of the two below
  private Set<String> revokedHere = Set.of(); // --revoked-edges (guarded by this)
  private Set<String> revokedServed = Set.of(); // the coordinator's answers (guarded by this)
  private String refusal = "unauthenticated"; // the receive loop's only

  private AgentKeys(String edge, DatagramAuth auth, Map<String, DatagramAuth> senders) {
    this.edge = edge;
    this.edgeBytes = edge.getBytes(StandardCharsets.UTF_8);
    this.auth = auth;
    this.derived = senders == null ? new DerivedKeys(auth, DerivedKeys.MAX_EDGES) : null;
    this.senders = senders == null ? null : checked(senders);
  }

  /** An agent holding the deployment keys {@code auth} (or insecure). */
  static AgentKeys deployment(String edge, DatagramAuth auth) {
    return new AgentKeys(edge, auth, null);
  }

  /**
   * An agent holding its own key {@code own} only ({@code nps overlay keys edge}) and the keys of
   * the agents it receives from, by edge name ({@code nps overlay keys edge --senders}).
   */
  static AgentKeys ownKey(String edge, DatagramAuth own, Map<String, DatagramAuth> senders) {
    if (!own.secure()) {
      throw new IllegalArgumentException("--own-key-only needs a key, not --insecure-datagrams");
    }
    return new AgentKeys(edge, own, senders);
  }

  boolean ownKeyOnly() {
    return derived == null;
  }

  /** The sealer for the agent's link (null: datagrams are not authenticated). */
  DatagramLink.Sealer sealer() {
    if (!auth.secure()) {
      return null;
    }
    return derived != null ? (b, o, n, to) -> auth.seal(b, o, n) : this; // the default: as before
  }

  /** Replaces the senders' keys (an own-key agent only): a sender left out is refused from now. */
  void senders(Map<String, DatagramAuth> keys) {
    if (derived != null) {
      throw new IllegalStateException("an agent holding the deployment keys has no senders' keys");
    }
    senders = checked(keys);
  }

  /**
   * From now on refuses every datagram naming one of {@code edges} (this host's {@code
   * --revoked-edges}), or one the coordinator revoked ({@link #revokedByCoordinator}), whatever its
   * key.
   */
  synchronized void revoke(Set<String> edges) {
    revokedHere = Set.copyOf(edges);
    revoked = union(revokedHere, revokedServed);
  }

  /**
   * The coordinator's revoked edges (its last keys answer), refused beside this host's own list: an
   * operator revokes at the coordinator once instead of in a file on every host.
   */
  synchronized void revokedByCoordinator(Set<String> edges) {
    revokedServed = Set.copyOf(edges);
    revoked = union(revokedHere, revokedServed);
  }

  /** Edges refused now as {@code revoked_origin}: both lists. */
  Set<String> revoked() {
    return revoked;
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    if (b.isEmpty() || a.containsAll(b)) {
      return a;
    }
    Set<String> u = new java.util.HashSet<>(a);
    u.addAll(b);
    return Set.copyOf(u);
  }

  /** Senders' keys held now (0 for a deployment-key agent). */
  int senderCount() {
    Map<String, DatagramAuth> s = senders;
    return s == null ? 0 : s.size();
  }

  /** Why the last {@link #open} refused: a counter name. */
  String refusal() {
    return refusal;
  }

  private static Map<String, DatagramAuth> checked(Map<String, DatagramAuth> keys) {
    if (keys.size() > MAX_SENDERS) {
      throw new IllegalArgumentException(
          "at most " + MAX_SENDERS + " senders' keys, not " + keys.size());
    }
    for (Map.Entry<String, DatagramAuth> e : keys.entrySet()) {
      if (!DatagramCodec.EDGE_NAME.matcher(e.getKey()).matches() || !e.getValue().secure()) {
        throw new IllegalArgumentException("sender '" + e.getKey() + "': not an edge name or key");
      }
    }
    return Map.copyOf(keys);
  }

  @Override
  public int seal(byte[] buf, int off, int len, InetSocketAddress to) {
    if (namesThisEdge(buf, off, len)) {
      return auth.seal(buf, off, len); // no String for the usual case: the agent's own datagrams
    }
    String n = named(buf, off, len);
    DatagramAuth k = n == null ? null : senders.get(n);
    // a NACK to a sender is sealed under that sender's key; without it, it is refused there
    return (k != null ? k : auth).seal(buf, off, len);
  }

  @Override
  public int open(byte[] buf, int off, int len, DatagramPacket packet) {
    if (!auth.secure()) {
      return len;
    }
    Set<String> revokedNow = revoked;
    if (derived != null && revokedNow.isEmpty()) {
      // the default: the deployment keys may name any edge, so the name is not even read
      int body = auth.open(buf, off, len);
      if (body >= 0) {
        return body;
      }
    }
    String n = named(buf, off, len);
    if (n == null) {
      // names no edge (its decoder refuses it): only the deployment keys may open it, as before
      refusal = "unauthenticated";
      return derived != null && !revokedNow.isEmpty() ? auth.open(buf, off, len) : -1;
    }
    if (revokedNow.contains(n)) {
      refusal = "revoked_origin";
      return -1;
    }
    int body;
    if (derived != null) {
      body = revokedNow.isEmpty() ? -1 : auth.open(buf, off, len);
      if (body < 0) {
        body = derived.open(n, buf, off, len); // an own-key agent's; kept only if it verifies
      }
    } else {
      DatagramAuth k = n.equals(edge) ? auth : senders.get(n);
      if (k == null) {
        refusal = "origin_key_unknown";
        return -1;
      }
      body = k.open(buf, off, len);
    }
    if (body < 0) {
      refusal = "unauthenticated";
    }
    return body;
  }

  /** Whether the datagram names this agent (compared by bytes: no String made). */
  private boolean namesThisEdge(byte[] buf, int off, int len) {
    if (!agentDatagram(buf, off, len)) {
      return false;
    }
    int n = buf[off + 4] & 0xff;
    return n == edgeBytes.length
        && 5 + n <= len
        && java.util.Arrays.equals(buf, off + 5, off + 5 + n, edgeBytes, 0, n);
  }

  private static boolean agentDatagram(byte[] buf, int off, int len) {
    return len >= 5
        && buf[off] == DatagramCodec.MAGIC_0
        && (buf[off + 1] == DatagramCodec.MAGIC_1 || buf[off + 1] == RepairCodec.MAGIC_1);
  }

  /**
   * The edge an agent datagram names: magic {@code NE} or {@code NR}, version, flags or kind, name
   * length and name ({@link DatagramCodec}, {@link RepairCodec}); null when the bytes are neither.
   */
  static String named(byte[] buf, int off, int len) {
    return agentDatagram(buf, off, len) ? EdgeKeys.nameAt(buf, off + 4, len - 4) : null;
  }
}
