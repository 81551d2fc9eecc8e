package org.netpubsub.controller.nbi;

import java.util.Arrays;
import org.zeromq.ZMQ;

/**
 * What a remote app needs to connect to a bus that takes CURVE (docs/security.md): the bus's public
 * key, which the client checks in the handshake (so it talks to no impostor), and its own key pair,
 * whose public key the bus's clients file admits.
 */
public record RemoteAppCredentials(byte[] serverKey, RemoteAppKeys.KeyPair client) {
  public RemoteAppCredentials {
    if (serverKey == null || serverKey.length != 32 || client == null) {
      throw new IllegalArgumentException("the bus's 32-byte public key and a key pair are needed");
    }
    serverKey = serverKey.clone();
  }

  /** From the bus's public key in Z85 and the client's key pair file's text. */
  public static RemoteAppCredentials of(String serverKeyZ85, String keyPairText, String source) {
    return new RemoteAppCredentials(
        RemoteAppKeys.z85(serverKeyZ85.strip(), "the bus's public key"),
        RemoteAppKeys.keyPair(keyPairText, source));
  }

  /** Makes a socket a CURVE client of the bus (before it connects). */
  void apply(ZMQ.Socket s) {
    s.setCurveServerKey(serverKey);
    s.setCurvePublicKey(client.publicKey());
    s.setCurveSecretKey(client.secretKey());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RemoteAppCredentials c
        && Arrays.equals(serverKey, c.serverKey)
        && client.equals(c.client);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(serverKey);
  }

  @Override
  public String toString() {
    return "RemoteAppCredentials[server=" + ZMQ.Curve.z85Encode(serverKey) + ", " + client + "]";
  }
}
