package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.client.TrustedCa;
import org.netpubsub.edge.coordinator.EdgeCoordinator;
import org.netpubsub.http.ServerTls;

/** {@code --tls-cert}/{@code --tls-key} on the REST servers; unusable files: one line, exit 1. */
class HttpsCommandsTest {
  private final CliRun cli = new CliRun();
  @TempDir Path dir;

  private static Path file(String name) throws Exception {
    return Path.of(HttpsCommandsTest.class.getResource("/tls/" + name).toURI());
  }

  /** {@code nps controller} on free ports with https, this certificate and the test key. */
  private int httpsController(Path cert, String... extra) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "controller",
                "--openflow",
                "tcp:127.0.0.1:0",
                "--api",
                "https://127.0.0.1:0",
                "--tls-cert",
                cert.toString(),
                "--tls-key",
                file("localhost-key.pem").toString(),
                "--exit-after-start"));
    args.addAll(List.of(extra));
    return cli.run(args.toArray(String[]::new));
  }

  @Test
  void theControllerSaysItServesHttps() throws Exception {
    int code = httpsController(file("localhost-cert.pem"), "--json");
    assertThat(code).as(cli.err()).isZero();
    assertThat(cli.lines().get(0).get("api").asText())
        .matches("https://127\\.0\\.0\\.1:[1-9][0-9]*");
  }

  @Test
  void theCoordinatorServesHttpsToAClientTrustingItsCa() throws Exception {
    try (EdgeCoordinator c =
        EdgeCoordinator.builder()
            .database("sqlite:" + dir.resolve("c.db"))
            .tls(ServerTls.load(file("localhost-cert.pem"), file("localhost-key.pem"), null))
            .start()) {
      URI live = URI.create("https://127.0.0.1:" + c.address().getPort() + "/health/live");
      HttpClient trusting =
          HttpClient.newBuilder().sslContext(TrustedCa.context(file("localhost-cert.pem"))).build();
      HttpResponse<String> r =
          trusting.send(HttpRequest.newBuilder(live).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThatThrownBy(
              () ->
                  HttpClient.newHttpClient()
                      .send(
                          HttpRequest.newBuilder(live).build(),
                          HttpResponse.BodyHandlers.ofString()))
          .isInstanceOf(IOException.class);
    }
  }

  @Test
  void unusableCertificateFilesAreOneLineAndExit1() throws Exception {
    Path junk = Files.writeString(dir.resolve("junk.pem"), "not a certificate\n");
    int code = httpsController(junk);
    assertThat(code).isEqualTo(1);
    assertThat(cli.err().strip()).doesNotContain("\n").contains("--tls-cert " + junk + ": ");
    cli.clear();
    Path missing = dir.resolve("missing-key.pem");
    code =
        cli.run(
            "edge-coordinator",
            "--listen",
            "127.0.0.1:0",
            "--db",
            "sqlite:" + dir.resolve("c.db"),
            "--tls-cert",
            file("localhost-cert.pem").toString(),
            "--tls-key",
            missing.toString(),
            "--exit-after-start");
    assertThat(code).isEqualTo(1);
    assertThat(cli.err().strip())
        .doesNotContain("\n")
        .contains("--tls-key " + missing + ": cannot read it");
  }

  @Test
  void httpsAndTheCertificateOptionsGoTogether() {
    assertThat(cli.run("controller", "--api", "https://127.0.0.1:0", "--exit-after-start"))
        .isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("--api https://HOST:PORT needs --tls-cert");
  }
}
