package org.netpubsub.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** HTTPS from PEM files: served, refused to plain HTTP, and authentication still applies. */
class HttpsTest {
  @TempDir static Path dir;
  private static SelfSigned server;
  private static Path otherKey;
  private RestServer rest;
  private Authenticator auth;

  @BeforeAll
  static void pki() throws Exception {
    server = SelfSigned.make(dir, "server"); // one keytool run: about a second
    otherKey = SelfSigned.otherKey(dir);
  }

  @AfterEach
  void stop() {
    if (rest != null) {
      rest.close();
      rest = null;
    }
    if (auth != null) {
      auth.close();
      auth = null;
    }
  }

  private void start(Path clientCa) throws Exception {
    start(clientCa, TlsProvider.BORINGSSL);
  }

  private void start(Path clientCa, TlsProvider provider) throws Exception {
    Path f = dir.resolve("principals.yaml");
    Files.writeString(f, "principals:\n" + AuthenticationTest.principal("alice", "tok-a", ""));
    auth = Authenticator.load(f, r -> {}, Duration.ZERO);
    rest =
        RestServer.builder("test", HttpMetrics.newRegistry())
            .auth(auth)
            .tls(ServerTls.load(server.cert(), server.key(), clientCa, provider))
            .route(
                "GET",
                "/v1/me",
                r -> Reply.ok(Json.MAPPER.createObjectNode().put("name", r.principal().name())))
            .route(
                "POST",
                "/v1/echo",
                r ->
                    Reply.ok(
                        Json.MAPPER.createObjectNode().put("got", r.json().path("s").asText())))
            .start();
  }

  private HttpResponse<String> get(HttpClient http, String scheme, String token)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(
                URI.create(scheme + "://127.0.0.1:" + rest.address().getPort() + "/v1/me"))
            .timeout(Duration.ofSeconds(20));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** What a plain HTTP request to the TLS port gets back before the server closes (or 5 s). */
  private String plainHttpAnswer() throws IOException {
    try (Socket s = new Socket("127.0.0.1", rest.address().getPort())) {
      s.setSoTimeout(5_000);
      s.getOutputStream()
          .write(
              "GET /v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok-a\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII));
      byte[] got = s.getInputStream().readNBytes(5);
      return new String(got, StandardCharsets.ISO_8859_1);
    } catch (SocketTimeoutException e) {
      return "";
    }
  }

  /** A client trusting the server's certificate, presenting {@code identity} if not null. */
  private static HttpClient client(SelfSigned identity) throws Exception {
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    KeyStore ts = KeyStore.getInstance("PKCS12");
    ts.load(null, null);
    ts.setCertificateEntry("ca", ServerTls.certificates(server.cert(), "ca").get(0));
    tmf.init(ts);
    KeyManagerFactory kmf = null;
    if (identity != null) {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(dir.resolve("server.p12"))) {
        ks.load(in, "changeit".toCharArray());
      }
      kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, "changeit".toCharArray());
    }
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    return HttpClient.newBuilder().sslContext(ctx).build();
  }

  @Test
  void httpsServesAndAuthenticatesAndPlainHttpIsRefused() throws Exception {
    start(null);
    HttpClient https = client(null);
    HttpResponse<String> ok = get(https, "https", "tok-a");
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(ok.body()).contains("\"name\":\"alice\"");
    assertThat(get(https, "https", null).statusCode()).isEqualTo(401);
    assertThat(get(https, "https", "tok-x").statusCode()).isEqualTo(401);
    // the token must never go over plain HTTP to the TLS port: no HTTP answer at all
    assertThat(plainHttpAnswer()).doesNotStartWith("HTTP/");
    // a client that does not trust the certificate does not talk to the server
    assertThatThrownBy(() -> get(HttpClient.newHttpClient(), "https", "tok-a"))
        .isInstanceOf(IOException.class);
  }

  @Test
  @EnabledOnOs(value = OS.LINUX, architectures = "amd64")
  void boringSslIsTheDefaultWhereItsNativeLibraryLoads() throws Exception {
    start(null);
    assertThat(rest.address()).isNotNull();
    assertThat(ServerTls.load(server.cert(), server.key(), null).provider()).contains("Conscrypt");
    assertThat(get(client(null), "https", "tok-a").statusCode()).isEqualTo(200);
  }

  @Test
  void recordsUseNativeBuffersAndDecryptStraightIntoTheParsersBuffer() throws Exception {
    ServerConnector c =
        TlsConnector.of(
            new Server(),
            new HttpConfiguration(),
            ServerTls.load(server.cert(), server.key(), null),
            1);
    SslConnectionFactory records = c.getConnectionFactory(SslConnectionFactory.class);
    assertThat(records.isDirectBuffersForEncryption()).isTrue();
    assertThat(records.isDirectBuffersForDecryption()).isTrue();
    // Jetty decrypts into the parser's buffer only if it has more room than a record's plaintext
    assertThat(c.getConnectionFactory(HttpConnectionFactory.class).getInputBufferSize())
        .isGreaterThan(16 * 1024);
  }

  @Test
  void oneSelectorPerCpuAtMostFourAndAQuarterOfThePool() throws Exception {
    // Jetty's default (half the CPUs) is one selector on 2 CPUs: every TLS record on one thread
    assertThat(TlsConnector.selectors(2, 32)).isEqualTo(2);
    assertThat(TlsConnector.selectors(1, 32)).isEqualTo(1);
    assertThat(TlsConnector.selectors(64, 32)).isEqualTo(4);
    assertThat(TlsConnector.selectors(64, 8)).isEqualTo(2);
    assertThat(TlsConnector.selectors(0, 8)).isEqualTo(1);
    ServerConnector c =
        TlsConnector.of(
            new Server(),
            new HttpConfiguration(),
            ServerTls.load(server.cert(), server.key(), null),
            2);
    assertThat(c.getSelectorManager().getSelectorCount()).isEqualTo(2);
  }

  @Test
  void aRequestOfManyRecordsIsServedWithBothProviders() throws Exception {
    String big = "x".repeat(60_000); // 4 records of at most 16 KiB, under the 64 KiB limit
    for (TlsProvider provider : TlsProvider.values()) {
      start(null, provider);
      HttpRequest post =
          HttpRequest.newBuilder(
                  URI.create("https://127.0.0.1:" + rest.address().getPort() + "/v1/echo"))
              .header("Authorization", "Bearer tok-a")
              .POST(HttpRequest.BodyPublishers.ofString("{\"s\":\"" + big + "\"}"))
              .build();
      HttpResponse<String> r = client(null).send(post, HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as("%s", provider).isEqualTo(200);
      assertThat(Json.MAPPER.readTree(r.body()).path("got").asText()).isEqualTo(big);
      stop();
    }
  }

  @Test
  void theJdkProviderOnRequestServesMutualTlsToo() throws Exception {
    start(server.cert(), TlsProvider.JDK);
    assertThat(ServerTls.load(server.cert(), server.key(), null, TlsProvider.JDK).provider())
        .contains("JDK");
    assertThat(get(client(server), "https", "tok-a").statusCode()).isEqualTo(200);
    assertThatThrownBy(() -> get(client(null), "https", "tok-a")).isInstanceOf(IOException.class);
  }

  @Test
  void mutualTlsRefusesAClientWithoutACertificateOfTheCa() throws Exception {
    // the client CA is the self-signed certificate, which the client presents as its own
    start(server.cert());
    assertThat(get(client(server), "https", "tok-a").statusCode()).isEqualTo(200);
    assertThat(get(client(server), "https", null).statusCode()).isEqualTo(401);
    assertThatThrownBy(() -> get(client(null), "https", "tok-a")).isInstanceOf(IOException.class);
  }

  @Test
  void unusableFilesAreRefusedNamingTheOptionAndTheFile() throws Exception {
    Path missing = dir.resolve("nope.pem");
    assertThatThrownBy(() -> ServerTls.load(missing, server.key(), null))
        .isInstanceOf(ServerTls.TlsFileException.class)
        .hasMessageContaining("--tls-cert " + missing + ": cannot read it");
    Path junk = Files.writeString(dir.resolve("junk.pem"), "hello\n");
    assertThatThrownBy(() -> ServerTls.load(junk, server.key(), null))
        .hasMessageStartingWith("--tls-cert " + junk + ": ");
    assertThatThrownBy(() -> ServerTls.load(server.cert(), junk, null))
        .hasMessageContaining("--tls-key " + junk + ": no '-----BEGIN PRIVATE KEY-----'");
    assertThatThrownBy(() -> ServerTls.load(server.cert(), otherKey, null))
        .hasMessageContaining("does not match the certificate");
    Path pkcs1 =
        Files.writeString(
            dir.resolve("rsa.pem"),
            "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");
    assertThatThrownBy(() -> ServerTls.load(server.cert(), pkcs1, null))
        .hasMessageContaining("not PKCS#8; convert it");
    assertThatThrownBy(() -> ServerTls.load(server.cert(), server.key(), junk))
        .hasMessageStartingWith("--tls-client-ca " + junk + ": ");
  }
}
