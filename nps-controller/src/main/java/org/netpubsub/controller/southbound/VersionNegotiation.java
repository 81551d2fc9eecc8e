package org.netpubsub.controller.southbound;

import java.util.OptionalLong;

/**
 * OpenFlow version negotiation (OF1.3.1 §6.3.1), for a controller that speaks only 1.3 (wire
 * version 4): with both version bitmaps, the highest common version; without the peer's bitmap, the
 * lower of the two header versions. Pure.
 */
final class VersionNegotiation {
  static final int OF13 = 4;

  /** The hello element bitmap this side sends: only bit 4. */
  static final long OUR_BITMAP = 1L << OF13;

  private VersionNegotiation() {}

  /** True if a peer whose HELLO has this header version and bitmap can speak 1.3 with us. */
  static boolean agrees(int peerVersion, OptionalLong peerBitmap) {
    if (peerBitmap.isPresent()) {
      return (peerBitmap.getAsLong() & OUR_BITMAP) != 0;
    }
    return Math.min(peerVersion, OF13) == OF13;
  }
}
