package org.netpubsub.http;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for 127.0.0.1 and ::1 made at test time with the JDK's keytool, written
 * as the PEM files a server is given ({@code cert.pem}, {@code key.pem}, PKCS#8).
 */
record SelfSigned(Path cert, Path key) {
  static SelfSigned make(Path dir, String name) throws Exception {
    Path p12 = dir.resolve(name + ".p12");
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    Process p =
        new ProcessBuilder(
                keytool,
                "-genkeypair",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-alias",
                "k",
                "-dname",
                "CN=" + name,
                "-validity",
                "2",
                "-ext",
                "san=ip:127.0.0.1,ip:0:0:0:0:0:0:0:1,dns:localhost",
                "-storetype",
                "PKCS12",
                "-keystore",
                p12.toString(),
                "-storepass",
                "changeit",
                "-keypass",
                "changeit")
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("keytool failed: " + out);
    }
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(p12)) {
      ks.load(in, "changeit".toCharArray());
    }
    PrivateKey k = (PrivateKey) ks.getKey("k", "changeit".toCharArray());
    Path cert = dir.resolve(name + "-cert.pem");
    Path key = dir.resolve(name + "-key.pem");
    Files.writeString(cert, pem("CERTIFICATE", ks.getCertificate("k").getEncoded()));
    Files.writeString(key, pem("PRIVATE KEY", k.getEncoded()));
    return new SelfSigned(cert, key);
  }

  /** A PEM key that matches no certificate. */
  static Path otherKey(Path dir) throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(256);
    return Files.writeString(
        dir.resolve("other-key.pem"),
        pem("PRIVATE KEY", g.generateKeyPair().getPrivate().getEncoded()));
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }
}
