package org.netpubsub.compiler.itch;

/**
 * Why bytes were dropped. A {@link Scope#PACKET packet} malformation breaks MoldUDP64 framing, so
 * nothing in the packet is trusted and all of it is dropped; a {@link Scope#MESSAGE message}
 * malformation drops that message alone (its block length still frames the next one).
 */
public enum Malformation {
  /** Fewer than the 20 bytes of the MoldUDP64 header. */
  TRUNCATED_HEADER(Scope.PACKET),
  /** The packet (or file) ends inside a block's 2-byte length. */
  TRUNCATED_BLOCK(Scope.PACKET),
  /** A block's length runs past the end of the packet (or file). */
  BLOCK_BEYOND_PACKET(Scope.PACKET),
  /** The packet ends before the header's message count is reached. */
  COUNT_MISMATCH(Scope.PACKET),
  /** Bytes follow the last counted block (a heartbeat or end-of-session carries none). */
  TRAILING_BYTES(Scope.PACKET),
  /** A zero-length message: it has no type byte. */
  EMPTY_MESSAGE(Scope.MESSAGE),
  /** A known ITCH 5.0 type at a length other than its own. */
  BAD_LENGTH(Scope.MESSAGE),
  /** An Add Order whose buy/sell indicator is neither 'B' nor 'S'. */
  BAD_SIDE(Scope.MESSAGE),
  /** An Add Order whose stock has a byte outside printable ASCII (0x20–0x7E). */
  BAD_STOCK(Scope.MESSAGE);

  /** What a malformation drops. */
  public enum Scope {
    PACKET,
    MESSAGE
  }

  private final Scope scope;

  Malformation(Scope scope) {
    this.scope = scope;
  }

  public Scope scope() {
    return scope;
  }

  /** The name in output, lower case ({@code bad_length}). */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
