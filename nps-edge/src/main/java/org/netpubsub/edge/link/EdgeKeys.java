package org.netpubsub.edge.link;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Per-edge datagram keys (docs/security.md, "Per-edge keys"): edge {@code e}'s key is HKDF-SHA-256
 * (RFC 5869) of a deployment key, with the edge's name in the info, so whoever holds the deployment
 * key (routing brokers, the coordinator) derives any edge's key and an edge given only its own key
 * can sign as no other. Pure.
 */
public final class EdgeKeys {
  /** Fixed salt: separates these keys from any other use of the deployment key. */
  private static final byte[] SALT = "netpubsub datagram keys v1".getBytes(StandardCharsets.UTF_8);

  private static final String INFO = "edge\0";
  private static final int LENGTH = 32;

  private EdgeKeys() {}

  /** Edge {@code edge}'s key under the deployment key {@code master}. */
  public static byte[] derive(byte[] master, String edge) {
    byte[] info = (INFO + edge).getBytes(StandardCharsets.UTF_8);
    return expand(extract(SALT, master), info, LENGTH);
  }

  /** Edge {@code edge}'s keys, one per deployment key, in their order (the first signs). */
  public static List<byte[]> derive(List<byte[]> masters, String edge) {
    return masters.stream().map(m -> derive(m, edge)).toList();
  }

  /**
   * The key edges {@code a} and {@code b} share for their direct datagrams when both hold their own
   * key only (docs/security.md, "Per-edge keys"): the same whichever is named first. Edge names
   * hold no NUL, so the info is unambiguous.
   */
  public static byte[] pair(byte[] master, String a, String b) {
    String lo = a.compareTo(b) <= 0 ? a : b;
    String hi = lo.equals(a) ? b : a;
    byte[] info = ("pair\0" + lo + "\0" + hi).getBytes(StandardCharsets.UTF_8);
    return expand(extract(SALT, master), info, LENGTH);
  }

  /** {@link #pair(byte[], String, String)} under each deployment key, in their order. */
  public static List<byte[]> pair(List<byte[]> masters, String a, String b) {
    return masters.stream().map(m -> pair(m, a, b)).toList();
  }

  /**
   * The edge name at {@code buf[off]}: a length byte (1..64), then that many bytes of {@code
   * [A-Za-z0-9._-]} within {@code len} bytes; null otherwise. Datagrams name the edge whose key
   * must verify them here (after their 4-byte header), so a name that is no edge name derives no
   * key.
   */
  public static String nameAt(byte[] buf, int off, int len) {
    if (len < 1) {
      return null;
    }
    int n = buf[off] & 0xff;
    if (n == 0 || n > 64 || 1 + n > len) {
      return null;
    }
    for (int i = off + 1; i < off + 1 + n; i++) {
      byte c = buf[i];
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '.'
              || c == '_'
              || c == '-';
      if (!ok) {
        return null;
      }
    }
    return new String(buf, off + 1, n, StandardCharsets.US_ASCII);
  }

  /** RFC 5869 HKDF-Extract with HMAC-SHA-256. */
  static byte[] extract(byte[] salt, byte[] ikm) {
    return hmac(salt.length == 0 ? new byte[32] : salt, ikm);
  }

  /** RFC 5869 HKDF-Expand with HMAC-SHA-256: {@code length} bytes (at most 255 × 32). */
  static byte[] expand(byte[] prk, byte[] info, int length) {
    if (length < 1 || length > 255 * 32) {
      throw new IllegalArgumentException("HKDF length " + length);
    }
    byte[] out = new byte[length];
    byte[] t = new byte[0];
    for (int i = 1, done = 0; done < length; i++) {
      byte[] in = new byte[t.length + info.length + 1];
      System.arraycopy(t, 0, in, 0, t.length);
      System.arraycopy(info, 0, in, t.length, info.length);
      in[in.length - 1] = (byte) i;
      t = hmac(prk, in);
      int n = Math.min(t.length, length - done);
      System.arraycopy(t, 0, out, done, n);
      done += n;
    }
    return out;
  }

  private static byte[] hmac(byte[] key, byte[] data) {
    try {
      Mac m = Mac.getInstance("HmacSHA256");
      m.init(new SecretKeySpec(key, "HmacSHA256"));
      return m.doFinal(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }
}
