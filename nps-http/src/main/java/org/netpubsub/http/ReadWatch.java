package org.netpubsub.http;

/**
 * One connection's request read, as {@link ReadDeadlines} samples it (pure logic, no I/O): how long
 * the request now arriving has been in its header, or in its body, and whether that is past the
 * deadline. Only the sweeping thread calls it.
 *
 * <p>The header's time runs from the connection's accept for its first request (a TLS handshake
 * included) and from the first sample that sees a later request's header begun; it stops when the
 * header is complete (the connection's request count moves). The body's time runs from the first
 * sample that sees the server waiting for body bytes, and starts again whenever the server is not
 * waiting (a request queued for a thread, or a route that has not read its body yet: the client's
 * bytes may be there, unread). Time between requests (a keep-alive connection at rest) is the idle
 * timeout's, not counted here.
 */
final class ReadWatch {
  /** What a sample of the connection saw. */
  enum Seen {
    /** Between requests: nothing of the next one parsed. */
    IDLE,
    /** Part of a request header parsed. */
    HEADER,
    /** The header complete, the server waiting for body bytes. */
    BODY_WAITING,
    /** Anything else: the body not asked for, the request being served, the answer going out. */
    SERVING
  }

  /** Which deadline a connection missed. */
  enum Missed {
    NONE,
    HEADER,
    BODY
  }

  private long requests;
  private Seen phase;
  private long since;

  /** A connection accepted at {@code acceptedNanos}: its first header's time runs from then. */
  ReadWatch(long acceptedNanos) {
    this.phase = Seen.HEADER;
    this.since = acceptedNanos;
  }

  /**
   * One sample at {@code now}: {@code requests} headers completed so far on the connection, and
   * what it is doing. Returns the deadline it is past, if any.
   */
  Missed sample(long now, long requests, Seen seen, long headerNanos, long bodyNanos) {
    if (requests != this.requests) {
      this.requests = requests;
      phase = null;
    }
    if (seen == Seen.IDLE && requests == 0) {
      seen = Seen.HEADER; // the first request's header is due from the accept on
    }
    if (seen == Seen.IDLE || seen == Seen.SERVING) {
      phase = null;
      return Missed.NONE;
    }
    if (seen != phase) {
      phase = seen;
      since = now;
    }
    if (seen == Seen.HEADER) {
      return now - since >= headerNanos ? Missed.HEADER : Missed.NONE;
    }
    return now - since >= bodyNanos ? Missed.BODY : Missed.NONE;
  }
}
