package org.netpubsub.controller.api;

import java.util.Map;
import org.netpubsub.http.ApiError;

/**
 * The index version a pub/sub request was made with ({@value #HEADER}), checked against the
 * controller's: a client whose index is not the current one computes other content addresses than
 * the flows expect, so it is told 409 with the current version (in the same header) and refetches
 * {@code GET /v1/pubsub}. A request without the header is accepted (curl, older clients).
 */
final class StaleIndex {
  /** The request and answer header carrying an index version. */
  static final String HEADER = "Nps-Index-Version";

  private StaleIndex() {}

  /** Throws 400 for a malformed version and 409 for one that is not {@code current}. */
  static void check(String header, long current) {
    if (header == null) {
      return;
    }
    long version;
    try {
      version = Long.parseLong(header.strip());
    } catch (NumberFormatException e) {
      throw ApiError.field(HEADER, HEADER + " must be a decimal number, not '" + header + "'");
    }
    if (version != current) {
      throw new ApiError(
          409,
          "index version "
              + version
              + " is stale: the current is "
              + current
              + " (GET /v1/pubsub, then retry)",
          HEADER,
          Map.of(HEADER, Long.toString(current)));
    }
  }
}
