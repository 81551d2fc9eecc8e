package org.netpubsub.controller.nbi;

import com.neilalexander.jnacl.crypto.curve25519;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.zeromq.ZMQ;

/**
 * The CURVE keys of the remote northbound (docs/security-northbound.md): the bus's key pair and the
 * public keys of the clients it admits, each with a name and the app names it may act as. Pure
 * parsing; the files are read by the caller.
 *
 * <p>Formats, one entry a line, a line starting with {@code #} a comment: a key pair file holds
 * {@code secret = Z85} and optionally {@code public = Z85} (checked against the secret); a clients
 * file holds {@code NAME PUBLIC_KEY [APP ...]}, where an entry without apps may act as the app
 * {@code NAME} only. Keys are ZeroMQ's Z85 text, 40 characters for 32 bytes ({@code nps auth
 * curve-key}).
 */
public record RemoteAppKeys(KeyPair server, Map<String, Client> clients) {
  /** At most this many clients: the map is consulted per connection, and is operator-written. */
  public static final int MAX_CLIENTS = 4096;

  public RemoteAppKeys {
    clients = Collections.unmodifiableMap(new LinkedHashMap<>(clients));
  }

  /** A Curve25519 key pair. */
  public record KeyPair(byte[] publicKey, byte[] secretKey) {
    public KeyPair {
      publicKey = publicKey.clone();
      secretKey = secretKey.clone();
    }

    /** A fresh key pair from the JDK's SecureRandom (ZeroMQ's own generator). */
    public static KeyPair generate() {
      ZMQ.Curve.KeyPair k = ZMQ.Curve.generateKeyPair();
      return new KeyPair(ZMQ.Curve.z85Decode(k.publicKey), ZMQ.Curve.z85Decode(k.secretKey));
    }

    /** The pair of a secret key: its public key is derived, so the two cannot disagree. */
    public static KeyPair ofSecret(byte[] secret) {
      byte[] pub = new byte[32];
      curve25519.crypto_scalarmult_base(pub, secret);
      return new KeyPair(pub, secret);
    }

    public String publicZ85() {
      return ZMQ.Curve.z85Encode(publicKey);
    }

    public String secretZ85() {
      return ZMQ.Curve.z85Encode(secretKey);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof KeyPair k
          && Arrays.equals(publicKey, k.publicKey)
          && Arrays.equals(secretKey, k.secretKey);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(publicKey);
    }

    @Override
    public String toString() {
      return "KeyPair[public=" + publicZ85() + "]"; // never the secret
    }
  }

  /** An admitted client: its name (the ZAP user id) and the app names it may act as. */
  public record Client(String name, Set<String> apps) {
    public Client {
      apps = Collections.unmodifiableSet(new LinkedHashSet<>(apps));
    }

    public boolean mayActAs(String app) {
      return apps.contains(app);
    }
  }

  /** The client admitted under this public key (32 bytes), if any. */
  public Optional<Client> client(byte[] publicKey) {
    if (publicKey == null || publicKey.length != 32) {
      return Optional.empty();
    }
    return Optional.ofNullable(clients.get(ZMQ.Curve.z85Encode(publicKey)));
  }

  /**
   * Parses a key pair file.
   *
   * @throws IllegalArgumentException naming {@code source} and the line, never a key's text
   */
  public static KeyPair keyPair(String text, String source) {
    byte[] secret = null;
    byte[] declaredPublic = null;
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = stripComment(lines[i]);
      if (line.isEmpty()) {
        continue;
      }
      String where = source + ": line " + (i + 1);
      int eq = line.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException(where + ": expected 'secret = KEY' or 'public = KEY'");
      }
      String field = line.substring(0, eq).strip();
      byte[] key = z85(line.substring(eq + 1).strip(), where + ": " + field);
      switch (field) {
        case "secret" -> secret = key;
        case "public" -> declaredPublic = key;
        default ->
            throw new IllegalArgumentException(
                where + ": unknown field '" + RemoteWire.abbreviate(field) + "' (secret, public)");
      }
    }
    if (secret == null) {
      throw new IllegalArgumentException(source + ": no 'secret = KEY' line");
    }
    KeyPair pair = KeyPair.ofSecret(secret);
    if (declaredPublic != null && !Arrays.equals(declaredPublic, pair.publicKey())) {
      throw new IllegalArgumentException(source + ": the public key is not the secret key's");
    }
    return pair;
  }

  /**
   * Parses a clients file.
   *
   * @throws IllegalArgumentException naming {@code source}, the line and the field
   */
  public static Map<String, Client> clients(String text, String source) {
    Map<String, Client> byKey = new LinkedHashMap<>();
    Set<String> names = new LinkedHashSet<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = stripComment(lines[i]);
      if (line.isEmpty()) {
        continue;
      }
      String where = source + ": line " + (i + 1);
      String[] w = line.split("\\s+");
      if (w.length < 2) {
        throw new IllegalArgumentException(where + ": expected NAME PUBLIC_KEY [APP ...]");
      }
      RemoteWire.nameProblem(w[0])
          .ifPresent(
              why -> {
                throw new IllegalArgumentException(where + ": name: " + why);
              });
      byte[] key = z85(w[1], where + ": public key");
      Set<String> apps = new LinkedHashSet<>();
      for (int j = 2; j < w.length; j++) {
        String app = w[j];
        RemoteWire.nameProblem(app)
            .ifPresent(
                why -> {
                  throw new IllegalArgumentException(where + ": app: " + why);
                });
        apps.add(app);
      }
      if (apps.isEmpty()) {
        apps.add(w[0]);
      }
      if (!names.add(w[0])) {
        throw new IllegalArgumentException(where + ": the name " + w[0] + " appears twice");
      }
      if (byKey.putIfAbsent(ZMQ.Curve.z85Encode(key), new Client(w[0], apps)) != null) {
        throw new IllegalArgumentException(where + ": " + w[0] + "'s key is another client's too");
      }
      if (byKey.size() > MAX_CLIENTS) {
        throw new IllegalArgumentException(source + ": more than " + MAX_CLIENTS + " clients");
      }
    }
    return byKey;
  }

  /** A line that starts with {@code #} is a comment; no comment ends a line, as Z85 has '#'. */
  private static String stripComment(String line) {
    String s = line.strip();
    return s.startsWith("#") ? "" : s;
  }

  /** 32 bytes from 40 characters of Z85; the error names the field, not the text. */
  static byte[] z85(String text, String field) {
    if (text.length() != 40) {
      throw new IllegalArgumentException(
          field + ": a key is 40 characters of Z85, not " + text.length());
    }
    byte[] key;
    try {
      key = ZMQ.Curve.z85Decode(text);
    } catch (RuntimeException e) {
      key = null;
    }
    if (key == null || key.length != 32 || !ZMQ.Curve.z85Encode(key).equals(text)) {
      throw new IllegalArgumentException(field + ": not a key in Z85 text");
    }
    return key;
  }
}
