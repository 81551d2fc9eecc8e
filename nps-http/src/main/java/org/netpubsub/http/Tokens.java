package org.netpubsub.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Bearer tokens: 256 random bits in URL-safe base64, stored only as their SHA-256 (a leaked
 * principals file does not give the tokens away; the tokens are random, so no salt is needed).
 */
public final class Tokens {
  private static final SecureRandom RANDOM = new SecureRandom();

  private Tokens() {}

  /** A new token. */
  public static String newToken() {
    byte[] b = new byte[32];
    RANDOM.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  /** The SHA-256 of a token's UTF-8 bytes, in lower-case hex (the principals file's form). */
  public static String sha256(String token) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /** An unguessable id of {@code bits} random bits (rounded up to bytes), URL-safe. */
  public static String randomId(int bits) {
    byte[] b = new byte[(bits + 7) / 8];
    RANDOM.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }
}
