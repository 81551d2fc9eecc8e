package org.netpubsub.controller.pubsub;

import java.util.Optional;

/**
 * Who sends a request and within what (docs/security.md): the owner its id is kept under, whether
 * it may act on others' requests (admin), the region its filter is intersected with (empty: no
 * restriction) and the key of its rate-limit bucket (principal and source address, never a field
 * the request claims).
 */
public record Access(String owner, boolean admin, Optional<String> region, String rateKey) {
  public Access {
    if (owner == null || rateKey == null) {
      throw new IllegalArgumentException("owner and rate key are required");
    }
  }

  /** Requests of the Java API without a principal: owned by nobody, limited per host. */
  static Access unowned(String host) {
    return new Access("", true, Optional.empty(), host);
  }

  /**
   * The key of its share of the filter CPU ({@link FilterWork}): the principal, all its sources
   * together; without authentication, where everyone is {@code anonymous} (and the Java API's
   * requests, owned by nobody), the rate key, so that one client's filters do not use up everyone's
   * share.
   */
  public String cpuKey() {
    return owner.isEmpty() || owner.equals(ANONYMOUS) ? rateKey : owner;
  }

  /** {@code Principal.ANONYMOUS}'s name: every request's principal on a server without --auth. */
  static final String ANONYMOUS = "anonymous";

  /** Whether this principal may read or withdraw a request owned by {@code requestOwner}. */
  public boolean mayTouch(String requestOwner) {
    return admin || owner.equals(requestOwner);
  }
}
