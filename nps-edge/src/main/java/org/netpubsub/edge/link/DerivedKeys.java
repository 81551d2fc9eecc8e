package org.netpubsub.edge.link;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Edges' keys derived from the deployment keys ({@link EdgeKeys}) by a holder of those keys (a
 * routing broker, an overlay edge broker or an edge agent trusted with them), kept for at most
 * {@code max} edges, the least recently used going first, and all dropped when the deployment keys
 * rotate. Edge names come from the network, so a key derived to check a datagram is kept only when
 * that datagram verified under it ({@link #open}): made-up names cost a derivation each and take no
 * place. Thread-safe.
 */
public final class DerivedKeys {
  /** Derived key sets kept by default. */
  public static final int MAX_EDGES = 4096;

  private final DatagramAuth deployment;
  private final int max;
  private final Map<String, DatagramAuth> derived = new LinkedHashMap<>(64, 0.75f, true);
  private Object derivedFor;

  public DerivedKeys(DatagramAuth deployment, int max) {
    this.deployment = deployment;
    this.max = max;
  }

  /** Edge {@code edge}'s keys, derived now if they are not held (and kept). */
  public DatagramAuth of(String edge) {
    Object version = deployment.keysVersion();
    DatagramAuth k = cached(edge, version);
    if (k == null) {
      k = DatagramAuth.of(EdgeKeys.derive(deployment.keys(), edge));
      remember(edge, k, version);
    }
    return k;
  }

  /** Edge {@code edge}'s keys if they are held now, else null (nothing is derived). */
  public DatagramAuth held(String edge) {
    return cached(edge, deployment.keysVersion());
  }

  /**
   * The length of the datagram in {@code len} sealed bytes of {@code buf} from {@code off} if its
   * tag verifies under edge {@code edge}'s keys, else -1; keys derived for it are kept only in the
   * first case.
   */
  public int open(String edge, byte[] buf, int off, int len) {
    Object version = deployment.keysVersion();
    DatagramAuth k = cached(edge, version);
    if (k != null) {
      return k.open(buf, off, len);
    }
    k = DatagramAuth.of(EdgeKeys.derive(deployment.keys(), edge));
    int body = k.open(buf, off, len);
    if (body >= 0) {
      remember(edge, k, version);
    }
    return body;
  }

  /** Key sets held now (tests). */
  public synchronized int size() {
    return derived.size();
  }

  private synchronized DatagramAuth cached(String edge, Object version) {
    if (derivedFor != version) {
      derived.clear(); // a rotation: every edge's keys follow the deployment's
      derivedFor = version;
    }
    return derived.get(edge);
  }

  private synchronized void remember(String edge, DatagramAuth k, Object version) {
    if (derivedFor != version) {
      return; // derived from keys that rotated meanwhile
    }
    derived.put(edge, k);
    if (derived.size() > max) {
      derived.remove(derived.keySet().iterator().next());
    }
  }
}
