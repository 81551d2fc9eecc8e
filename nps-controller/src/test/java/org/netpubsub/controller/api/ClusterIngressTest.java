package org.netpubsub.controller.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.controller.api.AuthenticatedApi.principal;

import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.event.Event;
import org.netpubsub.controller.pubsub.ClusterIngress;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.testing.ClusterProcess;
import org.netpubsub.controller.testing.Rest;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.controller.testing.ZooKeeperClients;
import org.netpubsub.http.Authenticator;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowStats;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.pleroma.ContentFlows;

/**
 * Publishing enforced at the host ports in a cluster (issue 27 part 2), two controller processes on
 * a real ZooKeeper, each with its own simulated switch (dpid and ports alike, as in
 * ClusterRegistryTest): one process writes the drops, from the advertisements made at any process;
 * the other writes none and its reconciles leave them alone; an answer waits until the writer's
 * drops follow it; when the writer leaves, the other takes over from ZooKeeper. The same on OVS:
 * testbed/tests/test_ingress_ovs.py's cluster case.
 */
class ClusterIngressTest {
  static final String PUB = "fd6e:7073:1::2";
  @TempDir Path dir;
  private final List<AutoCloseable> open = new ArrayList<>();

  /** One controller process ({@link ClusterProcess}) with its REST API and client. */
  private record Process(ClusterProcess p, Rest rest) {
    SimulatedOpenFlowSwitch sw() {
      return p.net().sw();
    }

    PubSubService service() {
      return p.service();
    }

    ClusterIngress ingress() {
      return p.ingress();
    }

    List<FlowEntry> drops() {
      return p.drops();
    }

    HttpResponse<String> send(String method, String path, String body) throws Exception {
      return rest.send(method, path, body, Map.of("Authorization", "Bearer t-pub"));
    }

    /** Whether an event of this price that the publisher (port 2) sends hits an ingress drop. */
    boolean dropsAt(long price) {
      long before = counted();
      Event e =
          Event.builder(service().index().schema()).set("symbol", "X").set("price", price).build();
      Ipv6Address to = ContentFlows.address(service().index().dz(e));
      sw().process(
              2, PacketHeaders.udp6(Ipv6Address.parse(PUB), to, 40_000, ContentFlows.EVENT_PORT));
      return counted() > before;
    }

    private long counted() {
      return sw().flowStats().stream()
          .filter(s -> s.entry().cookie() == SwitchLayout.INGRESS_COOKIE)
          .mapToLong(FlowStats::packetCount)
          .sum();
    }
  }

  @AfterEach
  void closeAll() throws Exception {
    closeReversed(open);
  }

  private static void closeReversed(List<AutoCloseable> list) throws Exception {
    for (int i = list.size() - 1; i >= 0; i--) {
      list.remove(i).close();
    }
  }

  @Test
  void oneWriterEnforcesEveryProcessesAdvertisementsAndTheNextTakesOver() throws Exception {
    TestingServer zk = track(new TestingServer());
    Path principals = dir.resolve("principals.yaml");
    Files.writeString(
        principals,
        "principals:\n"
            + principal("pub", "hosts: ['" + PUB + "']\n    advertise: 'price < 1000'"));
    List<AutoCloseable> ofA = new ArrayList<>();
    track(() -> closeReversed(ofA));
    Process a = process(zk.getConnectString(), "a", principals, ofA);
    Wait.until("a writes the drops", Duration.ofSeconds(20), () -> a.ingress().writes());
    Process b = process(zk.getConnectString(), "b", principals, open);
    Wait.until(
        "a drop-all on each of a's host ports",
        Duration.ofSeconds(20),
        () -> a.drops().size() == 4);
    assertThat(b.ingress().writes()).isFalse();
    assertThat(b.drops()).isEmpty(); // the other process wants none
    assertThat(a.dropsAt(10)).isTrue();
    // the reconcile of a process that does not write leaves the drops alone
    FlowEntry drop = a.drops().getFirst();
    assertThat(PubSubService.clusterReconcileScope(() -> true, () -> false).flows().test(drop))
        .isFalse();
    assertThat(PubSubService.clusterReconcileScope(() -> true, () -> true).flows().test(drop))
        .isTrue();

    // advertised at b, which does not write: answered once a's switch follows, cut to the region
    HttpResponse<String> ad = b.send("POST", "/v1/advertisements", advertisement());
    assertThat(ad.statusCode()).as(ad.body()).isEqualTo(201);
    assertThat(a.dropsAt(10)).isFalse();
    assertThat(a.dropsAt(40_000)).isTrue();
    assertThat(a.dropsAt(90_000)).isTrue();
    assertThat(b.drops()).isEmpty();

    // withdrawn (at b, where its owner is known): a's port closed again once answered
    String id = Rest.json(ad).get("id").asText();
    assertThat(b.send("DELETE", "/v1/advertisements/" + id, "").statusCode()).isEqualTo(200);
    assertThat(a.dropsAt(10)).isTrue();
    HttpResponse<String> counted = a.send("GET", "/v1/ingress", "");
    assertThat(Rest.json(counted).get("enforced").asBoolean()).isTrue();
    assertThat(Rest.json(counted).get("dropped_packets").asLong()).isGreaterThanOrEqualTo(1);

    // advertised at a, then a leaves: b takes over and writes its switch from ZooKeeper
    HttpResponse<String> again = a.send("POST", "/v1/advertisements", advertisement());
    assertThat(again.statusCode()).as(again.body()).isEqualTo(201);
    closeReversed(ofA);
    Wait.until(
        "b writes the drops of a's advertisement",
        Duration.ofSeconds(30),
        () -> b.ingress().writes() && b.dropsAt(40_000) && !b.dropsAt(10));
    assertThat(b.drops()).hasSizeGreaterThan(4); // port 2 opened to the region, others closed
  }

  private static String advertisement() {
    return "{\"host\":\"" + PUB + "\",\"filter\":\"price < 50000\"}";
  }

  private Process process(String connect, String member, Path principals, List<AutoCloseable> in)
      throws Exception {
    CuratorFramework client = keep(in, ZooKeeperClients.started(connect));
    ClusterProcess p = ClusterProcess.start(client, member, PubSubApiTest.QUOTES, in);
    PubSubService service = p.service();
    Authenticator auth =
        keep(in, Authenticator.load(principals, service::checkRegion, Duration.ZERO));
    ControllerApi api =
        keep(
            in,
            ControllerApi.start(
                p.net().controller(),
                Optional.of(service),
                Optional.empty(),
                Optional.empty(),
                new InetSocketAddress("::1", 0),
                Optional.of(auth),
                null,
                Optional.of(p.ingress())));
    return new Process(p, new Rest(api.address().getPort()));
  }

  private <T extends AutoCloseable> T track(T t) {
    return keep(open, t);
  }

  private static <T extends AutoCloseable> T keep(List<AutoCloseable> in, T t) {
    in.add(t);
    return t;
  }
}
