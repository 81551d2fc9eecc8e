package org.netpubsub.controller.pubsub;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;
import org.netpubsub.content.address.Ipv6Address;

/** The ids of pub/sub requests (random, or derived from an idempotency key) and their hosts. */
final class RequestIds {
  private static final SecureRandom IDS = new SecureRandom();

  private RequestIds() {}

  /** What an idempotency key may be (it becomes part of the request id and a znode name). */
  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9._:@-]{1,64}");

  /**
   * The id of a request sent with an idempotency key: {@code s:KEY} or {@code a:KEY}. Generated ids
   * start with {@code s-} or {@code a-}, so the two never meet.
   */
  static String keyed(PubSubRequest.Kind kind, String key) {
    if (!KEY.matcher(key).matches()) {
      throw new RequestRefusedException(
          new Refused.Invalid("Idempotency-Key must be 1-64 of letters, digits and . _ : @ -"));
    }
    return kind.idPrefix().charAt(0) + ":" + key;
  }

  /** 96 random bits in hex: an id nobody can guess (issue 27: ids were sequential). */
  static String random() {
    byte[] b = new byte[12];
    IDS.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  static Ipv6Address host(String text) {
    if (text == null || text.isBlank()) {
      throw new RequestRefusedException(new Refused.Invalid("host is required"));
    }
    try {
      return Ipv6Address.parse(text);
    } catch (IllegalArgumentException e) {
      throw new RequestRefusedException(new Refused.Invalid("not an IPv6 address: " + text));
    }
  }
}
