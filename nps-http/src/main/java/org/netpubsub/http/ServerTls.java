package org.netpubsub.http;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * A REST server's HTTPS settings from PEM files, read with the JDK alone: its certificate chain,
 * its private key (PKCS#8, {@code BEGIN PRIVATE KEY}, as {@code openssl req -newkey}, {@code
 * openssl genpkey} and {@code ovs-pki} write it) and, for mutual TLS, the CA whose certificates
 * clients must present. {@link #load} checks everything at once, so a bad file stops the server
 * before it binds, with one line naming the file ({@link TlsFileException}).
 */
public final class ServerTls {
  private static final int MAX_FILE = 1 << 20; // a PEM chain is a few KB
  private static final char[] NO_PASSWORD = new char[0];

  private final SSLContext context;
  private final boolean clientCertificates;
  private final String provider;

  private ServerTls(SSLContext context, boolean clientCertificates, String provider) {
    this.context = context;
    this.clientCertificates = clientCertificates;
    this.provider = provider;
  }

  /** {@link #load(Path, Path, Path, TlsProvider)} with BoringSSL where it loads. */
  public static ServerTls load(Path certificate, Path key, Path clientCa) throws TlsFileException {
    return load(certificate, key, clientCa, TlsProvider.BORINGSSL);
  }

  /**
   * Reads and checks the files: the certificate (the leaf first, then its chain), the key that
   * matches it, and the client CA if not null (then every client must present a certificate it
   * signed); {@code provider} encrypts the records.
   */
  public static ServerTls load(Path certificate, Path key, Path clientCa, TlsProvider provider)
      throws TlsFileException {
    List<X509Certificate> chain = certificates(certificate, "--tls-cert");
    PrivateKey k = privateKey(key);
    matches(k, chain.get(0), certificate, key);
    List<X509Certificate> cas =
        clientCa == null ? List.of() : certificates(clientCa, "--tls-client-ca");
    try {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      ks.setKeyEntry("server", k, NO_PASSWORD, chain.toArray(Certificate[]::new));
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, NO_PASSWORD);
      TrustManagerFactory tmf = null;
      if (clientCa != null) {
        tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trustStore(cas));
      }
      SSLContext ctx = provider.context();
      ctx.init(kmf.getKeyManagers(), tmf == null ? null : tmf.getTrustManagers(), null);
      return new ServerTls(ctx, clientCa != null, provider.actual());
    } catch (GeneralSecurityException | IOException e) {
      throw new TlsFileException(
          "--tls-cert " + certificate + ": cannot use it: " + e.getMessage());
    }
  }

  /** The provider that encrypts the records: Conscrypt (BoringSSL) or the JDK's. */
  public String provider() {
    return provider;
  }

  /** Whether clients must present a certificate of the client CA. */
  public boolean mutual() {
    return clientCertificates;
  }

  /** Jetty's TLS settings for one connector: TLS 1.3 and 1.2 only. */
  SslContextFactory.Server jetty() {
    SslContextFactory.Server f = new SslContextFactory.Server();
    f.setSslContext(context);
    f.setIncludeProtocols("TLSv1.3", "TLSv1.2");
    f.setNeedClientAuth(clientCertificates);
    return f;
  }

  /** Every certificate in a PEM file, in order; one at least. */
  static List<X509Certificate> certificates(Path file, String option) throws TlsFileException {
    byte[] pem = read(file, option);
    try (InputStream in = new ByteArrayInputStream(pem)) {
      List<X509Certificate> certs =
          CertificateFactory.getInstance("X.509").generateCertificates(in).stream()
              .map(X509Certificate.class::cast)
              .toList();
      if (certs.isEmpty()) {
        throw new TlsFileException(option + " " + file + ": no certificate in it (PEM expected)");
      }
      return certs;
    } catch (TlsFileException e) {
      throw e;
    } catch (GeneralSecurityException | IOException e) {
      throw new TlsFileException(
          option + " " + file + ": not a PEM certificate (" + e.getMessage() + ")");
    }
  }

  private static PrivateKey privateKey(Path file) throws TlsFileException {
    String pem = new String(read(file, "--tls-key"), StandardCharsets.US_ASCII);
    String where = "--tls-key " + file + ": ";
    if (pem.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")) {
      throw new TlsFileException(where + "the key is encrypted; give it unencrypted (mode 0600)");
    }
    if (pem.contains("-----BEGIN RSA PRIVATE KEY-----")
        || pem.contains("-----BEGIN EC PRIVATE KEY-----")) {
      throw new TlsFileException(
          where + "not PKCS#8; convert it: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8");
    }
    int begin = pem.indexOf("-----BEGIN PRIVATE KEY-----");
    int end = pem.indexOf("-----END PRIVATE KEY-----");
    if (begin < 0 || end < begin) {
      throw new TlsFileException(where + "no '-----BEGIN PRIVATE KEY-----' block (PEM expected)");
    }
    byte[] der;
    try {
      der =
          Base64.getMimeDecoder()
              .decode(pem.substring(begin + "-----BEGIN PRIVATE KEY-----".length(), end));
    } catch (IllegalArgumentException e) {
      throw new TlsFileException(where + "bad base64 (" + e.getMessage() + ")");
    }
    for (String alg : List.of("RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS")) {
      try {
        return KeyFactory.getInstance(alg).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        // not this algorithm: try the next
      }
    }
    throw new TlsFileException(where + "not an RSA, EC or EdDSA private key");
  }

  /** The key must be the certificate's: sign with one, verify with the other. */
  private static void matches(PrivateKey key, X509Certificate cert, Path certFile, Path keyFile)
      throws TlsFileException {
    String alg =
        switch (key.getAlgorithm()) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          default -> key.getAlgorithm(); // Ed25519, Ed448
        };
    try {
      byte[] probe = new byte[32];
      new SecureRandom().nextBytes(probe);
      Signature s = Signature.getInstance(alg);
      s.initSign(key);
      s.update(probe);
      byte[] sig = s.sign();
      Signature v = Signature.getInstance(alg);
      v.initVerify(cert.getPublicKey());
      v.update(probe);
      if (v.verify(sig)) {
        return;
      }
    } catch (GeneralSecurityException e) {
      // a key of another type than the certificate's: the same answer
    }
    throw new TlsFileException(
        "--tls-key " + keyFile + ": does not match the certificate in --tls-cert " + certFile);
  }

  private static KeyStore trustStore(List<X509Certificate> cas)
      throws GeneralSecurityException, IOException {
    KeyStore ts = KeyStore.getInstance("PKCS12");
    ts.load(null, null);
    for (int i = 0; i < cas.size(); i++) {
      ts.setCertificateEntry("ca-" + i, cas.get(i));
    }
    return ts;
  }

  /** The file's bytes, at most 1 MiB, counted as read (a device reports size 0). */
  private static byte[] read(Path file, String option) throws TlsFileException {
    if (file == null) {
      throw new TlsFileException(option + " FILE is required");
    }
    byte[] b;
    try (InputStream in = Files.newInputStream(file)) {
      b = in.readNBytes(MAX_FILE + 1);
    } catch (IOException e) {
      throw new TlsFileException(
          option
              + " "
              + file
              + ": cannot read it ("
              + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
              + ")");
    }
    if (b.length > MAX_FILE) {
      throw new TlsFileException(option + " " + file + ": larger than " + MAX_FILE + " bytes");
    }
    return b;
  }

  /** A TLS file that cannot be used; the message is one line naming the option and the file. */
  public static final class TlsFileException extends IOException {
    private static final long serialVersionUID = 1L;

    public TlsFileException(String message) {
      super(message);
    }
  }
}
