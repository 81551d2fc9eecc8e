package org.netpubsub.edge.link;

import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * HMAC-SHA-256 (RFC 2104) for one key, computing the same tags as {@code
 * javax.crypto.Mac.getInstance("HmacSHA256")} with less work per message: the key's inner and outer
 * pad blocks are hashed once, here, and each message starts from copies of those two SHA-256 states
 * ({@link MessageDigest#clone}) instead of hashing both pads again, as the JDK's {@code Mac} does
 * for every message. A 256 B datagram then costs 6 SHA-256 compressions instead of 8
 * (docs/results/overlay-relay-auth.md, "Stop 43"). The states kept are what the JDK's {@code Mac}
 * keeps too (its {@code k_ipad} and {@code k_opad}, from which the key follows directly): nothing
 * more secret is held. Not thread-safe: one instance per thread ({@link DatagramAuth}'s per-thread
 * set); the copies are the only allocation per message.
 */
final class HmacSha256 {
  /** SHA-256's block: the pads' length. */
  private static final int BLOCK = 64;

  /** The full tag's length. */
  static final int LENGTH = 32;

  private final MessageDigest inner;
  private final MessageDigest outer;
  private final byte[] innerHash = new byte[LENGTH];

  /** For {@code key} (any length: one longer than a block is hashed first, as RFC 2104 says). */
  HmacSha256(byte[] key) {
    try {
      byte[] k = key.length > BLOCK ? MessageDigest.getInstance("SHA-256").digest(key) : key;
      byte[] ipad = new byte[BLOCK];
      byte[] opad = new byte[BLOCK];
      for (int i = 0; i < BLOCK; i++) {
        int b = i < k.length ? k[i] : 0;
        ipad[i] = (byte) (b ^ 0x36);
        opad[i] = (byte) (b ^ 0x5c);
      }
      inner = MessageDigest.getInstance("SHA-256");
      inner.update(ipad); // one whole block: compressed now, the state is kept
      outer = MessageDigest.getInstance("SHA-256");
      outer.update(opad);
      inner.clone(); // a provider whose SHA-256 cannot be copied fails here, at start
      Arrays.fill(ipad, (byte) 0);
      Arrays.fill(opad, (byte) 0);
      if (k != key) {
        Arrays.fill(k, (byte) 0);
      }
    } catch (NoSuchAlgorithmException | CloneNotSupportedException e) {
      throw new IllegalStateException("SHA-256 (cloneable) is part of every JDK", e);
    }
  }

  /**
   * Writes the HMAC of {@code len} bytes of {@code data} from {@code off} into {@code out} at
   * {@code outOff} ({@link #LENGTH} bytes); {@code out} may be {@code data}, outside the message.
   */
  void mac(byte[] data, int off, int len, byte[] out, int outOff) {
    try {
      MessageDigest in = (MessageDigest) inner.clone();
      in.update(data, off, len);
      in.digest(innerHash, 0, LENGTH);
      MessageDigest o = (MessageDigest) outer.clone();
      o.update(innerHash, 0, LENGTH);
      o.digest(out, outOff, LENGTH);
    } catch (CloneNotSupportedException | DigestException e) {
      throw new IllegalStateException("the JDK's SHA-256 clones and fills 32 bytes", e);
    }
  }
}
