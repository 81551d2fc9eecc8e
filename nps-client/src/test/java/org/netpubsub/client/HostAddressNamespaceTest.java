package org.netpubsub.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link HostAddresses#detect} on a real kernel: a network namespace (a veth pair inside it) holds
 * the host's addresses and routes, and a child JVM run in it detects the host address. Needs root
 * and iproute2, as the test bed does; skipped without them.
 */
class HostAddressNamespaceTest {
  private static final String CONTROLLER = "http://[2001:db8:ff::1]:8080";
  private final String ns = "nps-hostaddr-" + ProcessHandle.current().pid();

  @BeforeEach
  void namespace() throws Exception {
    assumeTrue(
        "root".equals(System.getProperty("user.name")) && Files.isExecutable(Path.of("/sbin/ip")),
        "needs root and iproute2");
    run("ip", "netns", "add", ns);
    ip("link", "add", "d0", "type", "veth", "peer", "name", "d1");
    ip("link", "set", "d0", "up");
    ip("link", "set", "d1", "up");
  }

  @AfterEach
  void remove() throws Exception {
    if ("root".equals(System.getProperty("user.name"))) {
      new ProcessBuilder("ip", "netns", "del", ns).start().waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void privacyAddressesTheRouteToTheControllerChooses() throws Exception {
    ip("addr", "add", "2001:db8:1::10/64", "dev", "d0", "nodad");
    ip("addr", "add", "2001:db8:1::20/64", "dev", "d0", "nodad");
    ip("route", "add", "2001:db8:ff::/64", "dev", "d0", "src", "2001:db8:1::20");
    assertThat(detect(CONTROLLER)).isEqualTo("2001:db8:1::20");
    ip("route", "replace", "2001:db8:ff::/64", "dev", "d0", "src", "2001:db8:1::10");
    assertThat(detect(CONTROLLER)).isEqualTo("2001:db8:1::10");
  }

  @Test
  void theTestBedsDataAddressBesideTheManagementInterface() throws Exception {
    ip("addr", "add", "fd6e:7073:1::3/64", "dev", "d1", "nodad"); // data
    ip("addr", "add", "fd6e:7073:ffff::3/64", "dev", "d0", "nodad"); // management
    ip("route", "add", "2001:db8:ff::/64", "dev", "d0", "src", "fd6e:7073:ffff::3");
    assertThat(detect(CONTROLLER)).isEqualTo("fd6e:7073:1::3");
  }

  @Test
  void aControllerOnLoopbackDoesNotChooseAmongSeveral() throws Exception {
    ip("link", "set", "lo", "up");
    ip("addr", "add", "2001:db8:1::10/64", "dev", "d0", "nodad");
    ip("addr", "add", "2001:db8:1::20/64", "dev", "d0", "nodad");
    assertThat(detect("http://[::1]:8080"))
        .startsWith("error: several global IPv6 addresses")
        .contains("d0 2001:db8:1::10", "d0 2001:db8:1::20", "--host");
  }

  private String detect(String controller) throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    return run(
        "ip",
        "netns",
        "exec",
        ns,
        java,
        "-cp",
        System.getProperty("java.class.path"),
        HostAddressProbe.class.getName(),
        controller);
  }

  private void ip(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("ip", "-n", ns));
    command.addAll(List.of(args));
    run(command.toArray(String[]::new));
  }

  private static String run(String... command) throws IOException, InterruptedException {
    // stdout alone: the probe's answer (its log lines go to stderr, shown in the test output)
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
    assertThat(p.exitValue()).as("%s exit code (output: %s)", command, out).isZero();
    return out;
  }
}
