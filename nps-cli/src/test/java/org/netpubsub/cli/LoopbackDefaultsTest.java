package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.controller.nbi.RemoteAppKeys;

/**
 * Mosquitto 2.0's rule (issue 27): what authenticates nobody listens on loopback only; beyond it,
 * one line and exit 2 unless the opt-out is named.
 */
class LoopbackDefaultsTest {
  @TempDir Path dir;
  private final CliRun cli = new CliRun();

  private int controller(String... extra) {
    String[] base = {"controller", "--exit-after-start"};
    String[] args = java.util.Arrays.copyOf(base, base.length + extra.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return cli.run(args);
  }

  @Test
  void theDefaultsListenOnLoopbackOnly() {
    assertThat(controller("--openflow", "tcp:127.0.0.1:0", "--api", "http://127.0.0.1:0"))
        .as(cli.err())
        .isZero();
    assertThat(cli.run("controller", "--help")).isZero();
    assertThat(cli.out().replaceAll("\\s+", ""))
        .contains("(default:tcp:127.0.0.1:6653;")
        .contains("(default:http://127.0.0.1:8080)");
  }

  @Test
  void anUnauthenticatedRestApiBeyondLoopbackIsRefusedUnlessInsecureApi() {
    String[] api = {"--openflow", "tcp:127.0.0.1:0", "--api", "http://0.0.0.0:0"};
    assertThat(controller(api)).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err().strip())
        .startsWith("error: --api 0.0.0.0 is not a loopback address")
        .contains("--auth FILE")
        .contains("--insecure-api")
        .doesNotContain("\n");
    assertThat(controller(concat(api, "--insecure-api"))).as(cli.err()).isZero();
    assertThat(
            cli.run(
                "edge-coordinator",
                "--listen",
                "0.0.0.0:0",
                "--db",
                "sqlite:" + dir.resolve("c.db"),
                "--exit-after-start"))
        .isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("--listen 0.0.0.0 is not a loopback address");
  }

  @Test
  void plainOpenFlowBeyondLoopbackIsRefusedUnlessInsecureOpenflow() {
    String[] of = {"--openflow", "tcp:0.0.0.0:0", "--api", "http://127.0.0.1:0"};
    assertThat(controller(of)).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("--openflow 0.0.0.0 is not a loopback address");
    assertThat(controller(concat(of, "--insecure-openflow"))).as(cli.err()).isZero();
  }

  @Test
  void theRemoteNorthboundBeyondLoopbackNeedsCurveKeysOrInsecureNbiRemote() throws Exception {
    String[] nbi = {
      "--openflow", "tcp:127.0.0.1:0", "--api", "http://127.0.0.1:0", "--nbi-remote", "0.0.0.0:0"
    };
    assertThat(controller(nbi)).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err())
        .contains("--nbi-remote 0.0.0.0 is not a loopback address")
        .contains("--nbi-remote-key");
    assertThat(controller(concat(nbi, "--insecure-nbi-remote"))).as(cli.err()).isZero();

    RemoteAppKeys.KeyPair server = RemoteAppKeys.KeyPair.generate();
    RemoteAppKeys.KeyPair app = RemoteAppKeys.KeyPair.generate();
    Path key = Files.writeString(dir.resolve("bus.key"), "secret = " + server.secretZ85() + "\n");
    Path clients =
        Files.writeString(dir.resolve("clients"), "# apps\nflooder " + app.publicZ85() + "\n");
    String[] keys = {
      "--nbi-remote-key", key.toString(), "--nbi-remote-clients", clients.toString()
    };
    assertThat(controller(concat(nbi, keys))).as(cli.err()).isZero();
    assertThat(controller(concat(nbi, "--nbi-remote-key", key.toString())))
        .isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("--nbi-remote-key and --nbi-remote-clients go together");
    Files.writeString(clients, "flooder short\n");
    assertThat(controller(concat(nbi, keys))).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("--nbi-remote-clients " + clients + ": line 1: public key");
  }

  @Test
  void aCurveKeyPairIsTwoLinesThatParseBack() {
    assertThat(cli.run("auth", "curve-key")).isZero();
    RemoteAppKeys.KeyPair k = RemoteAppKeys.keyPair(cli.out(), "out");
    assertThat(cli.out()).startsWith("public = " + k.publicZ85() + "\n");
  }

  private static String[] concat(String[] a, String... b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
