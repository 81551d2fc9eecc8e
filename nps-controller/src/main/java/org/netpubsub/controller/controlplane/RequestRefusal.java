package org.netpubsub.controller.controlplane;

/**
 * An addition refused after it was queued: a partition's owner could not carry out its part (its
 * host still unknown there after {@link ClusterControlPlane#HOST_GRACE}). The parts other
 * partitions applied are withdrawn; the reason is the refusing owner's.
 */
public final class RequestRefusal extends RuntimeException {
  private final String id;

  public RequestRefusal(String id, String reason) {
    super(reason, null, false, false);
    this.id = id;
  }

  /** The refused request's id. */
  public String id() {
    return id;
  }
}
