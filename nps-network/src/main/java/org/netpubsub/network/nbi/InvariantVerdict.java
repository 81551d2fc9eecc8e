package org.netpubsub.network.nbi;

/** The invariant checker's answer to a route change: accepted, or why not. */
public record InvariantVerdict(Outcome outcome, String reason) {

  /** Accepted, or the invariant the change would break (EMD §4.3). */
  public enum Outcome {
    ACCEPT,
    /** Traffic would come back to a switch it already passed. */
    LOOP,
    /** Traffic would end at a switch without a rule, or at a port with no link and no host. */
    BLACK_HOLE
  }

  public static final InvariantVerdict ACCEPT = new InvariantVerdict(Outcome.ACCEPT, "");

  public InvariantVerdict {
    if (outcome == null || reason == null) {
      throw new IllegalArgumentException("a verdict has an outcome and a reason");
    }
  }

  static InvariantVerdict loop(String reason) {
    return new InvariantVerdict(Outcome.LOOP, reason);
  }

  static InvariantVerdict blackHole(String reason) {
    return new InvariantVerdict(Outcome.BLACK_HOLE, reason);
  }

  public boolean accepted() {
    return outcome == Outcome.ACCEPT;
  }
}
