package org.netpubsub.edge.link;

/**
 * The bound on a list of revoked edges, shared by the lists that name them (the coordinator's
 * {@code --revoked-edges} file, its keys answers and the overlay's revoked-edges znode). Here, in a
 * package every party may use, so that neither the overlay nor the agents import {@code
 * edge.coordinator} (which depends on them: a package cycle).
 */
public final class RevokedBound {
  /** The most edges one list may name; a longer one is refused whole. */
  public static final int MAX_EDGES = 4096;

  private RevokedBound() {}
}
