package org.netpubsub.compiler.telemetry;

import java.util.Locale;

/**
 * Why telemetry report bytes were dropped. A {@link Scope#PACKET packet} malformation breaks the
 * framing (group header, report lengths) and drops the packet; a {@link Scope#REPORT report}
 * malformation drops one individual report, whose Report Length still frames the next.
 */
public enum IntMalformation {
  /** Fewer than the 8 bytes of the group header. */
  TRUNCATED_GROUP_HEADER(Scope.PACKET),
  /** The group header's version is not 2. */
  BAD_VERSION(Scope.PACKET),
  /** The packet ends inside an individual report's 4-byte header. */
  TRUNCATED_REPORT_HEADER(Scope.PACKET),
  /** A report's length runs past the end of the packet. */
  REPORT_BEYOND_PACKET(Scope.PACKET),
  /** An INT report too short for RepMdBits, domain id, DSMdBits and DSMdStatus (8 bytes). */
  SHORT_INT_REPORT(Scope.REPORT),
  /** The metadata (MD Length) does not fit in the report (Report Length). */
  MD_BEYOND_REPORT(Scope.REPORT),
  /** RepMdBits ask for more baseline metadata than MD Length holds. */
  BASELINE_BEYOND_MD(Scope.REPORT);

  /** What a malformation drops. */
  public enum Scope {
    PACKET,
    REPORT
  }

  private final Scope scope;

  IntMalformation(Scope scope) {
    this.scope = scope;
  }

  public Scope scope() {
    return scope;
  }

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
