package org.netpubsub.edge.coordinator;

/**
 * Caps on what requests may build up at the coordinator (issue 27): beyond them a request is
 * answered 429 (edges, filters an edge holds) or 413 (filters in one request) with the reason, and
 * changes nothing. Every field must be positive.
 *
 * @param edges edges registered at most; re-registering a known edge is always allowed
 * @param filtersPerEdge topic filters one edge holds at most
 * @param filtersPerRequest topic filters added and removed in one request at most
 */
record CoordinatorCaps(int edges, int filtersPerEdge, int filtersPerRequest) {
  /** The caps a coordinator runs with; tests choose small ones to reach them quickly. */
  static final CoordinatorCaps DEFAULT = new CoordinatorCaps(4_096, 100_000, 10_000);

  CoordinatorCaps {
    if (edges < 1 || filtersPerEdge < 1 || filtersPerRequest < 1) {
      throw new IllegalArgumentException("coordinator caps must be positive");
    }
  }
}
