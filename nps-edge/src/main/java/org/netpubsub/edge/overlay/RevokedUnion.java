package org.netpubsub.edge.overlay;

import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The edges an overlay broker refuses as {@code revoked_origin}: the union of its {@code
 * --revoked-edges} file and the revoked-edges znode ({@link ZkRevokedEdges}), each replaced as its
 * source changes, so a name lifted from one source stays refused while the other names it. The
 * sources may report before the broker exists: the union is held and handed over at {@link
 * #attach}. Thread-safe (each source reports on its own thread).
 */
public final class RevokedUnion {
  private Set<String> file = Set.of();
  private Set<String> zookeeper = Set.of();
  private Consumer<Set<String>> target; // null until attached

  /** The {@code --revoked-edges} file's edges, replacing its previous ones. */
  public synchronized void file(Set<String> edges) {
    file = Set.copyOf(edges);
    push();
  }

  /** The znode's edges, replacing its previous ones. */
  public synchronized void zookeeper(Set<String> edges) {
    zookeeper = Set.copyOf(edges);
    push();
  }

  /** From now on {@code broker} gets the union at each change, and now the current one. */
  public synchronized void attach(Consumer<Set<String>> broker) {
    target = broker;
    push();
  }

  /** Both sources' edges now. */
  public synchronized Set<String> edges() {
    Set<String> all = new HashSet<>(file);
    all.addAll(zookeeper);
    return Set.copyOf(all);
  }

  private void push() {
    if (target != null) {
      target.accept(edges());
    }
  }
}
