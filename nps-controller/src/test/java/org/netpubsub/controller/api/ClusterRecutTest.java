package org.netpubsub.controller.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.controller.api.AuthenticatedApi.principal;

import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
import org.netpubsub.content.index.DzSet;
import org.netpubsub.controller.pubsub.PubSubRequest;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.testing.ClusterProcess;
import org.netpubsub.controller.testing.Rest;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.controller.testing.ZooKeeperClients;
import org.netpubsub.http.Authenticator;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.FlowStats;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.pleroma.ContentFlows;

/**
 * A principals reload in a cluster of two controller processes on a real ZooKeeper
 * (ClusterProcess): the process that accepted a subscription and an advertisement re-cuts them
 * under their ids in the shared control plane, once (the other accepted none: it re-cuts nothing),
 * and the ingress writer's drops follow the advertisement's new cover.
 */
class ClusterRecutTest {
  private static final String PUB = "fd6e:7073:1::2";
  private static final String SUB = "fd6e:7073:1::3";
  private static final String A = "price < 1000";
  private static final String A_OR_B = "price < 1000 || price >= 50000";
  @TempDir Path dir;
  private final List<AutoCloseable> open = new ArrayList<>();

  private record Process(ClusterProcess p, Rest rest, Authenticator auth, ControllerApi api) {
    PubSubService service() {
      return p.service();
    }

    HttpResponse<String> send(String who, String method, String path, String body)
        throws Exception {
      return rest.send(method, path, body, Map.of("Authorization", "Bearer t-" + who));
    }

    /** Whether an event of this price that the publisher (port 2) sends hits an ingress drop. */
    boolean dropsAt(long price) {
      long before = counted();
      Event e =
          Event.builder(service().index().schema()).set("symbol", "X").set("price", price).build();
      Ipv6Address to = ContentFlows.address(service().index().dz(e));
      p.net()
          .sw()
          .process(
              2, PacketHeaders.udp6(Ipv6Address.parse(PUB), to, 40_000, ContentFlows.EVENT_PORT));
      return counted() > before;
    }

    private long counted() {
      return p.net().sw().flowStats().stream()
          .filter(s -> s.entry().cookie() == SwitchLayout.INGRESS_COOKIE)
          .mapToLong(FlowStats::packetCount)
          .sum();
    }

    double recut() {
      return api.metrics().get("nps.auth.recut").tag("outcome", "recut").counter().count();
    }
  }

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.remove(i).close();
    }
  }

  private void write(Path f, String advertise, String subscribe) throws Exception {
    Path tmp = dir.resolve("principals.tmp");
    Files.writeString(
        tmp,
        "principals:\n"
            + principal("pub", "hosts: ['" + PUB + "']\n    advertise: '" + advertise + "'")
            + principal("sub", "hosts: ['" + SUB + "']\n    subscribe: '" + subscribe + "'"));
    Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING);
  }

  private DzSet cells(Process at, String id) {
    return at.service().requests(PubSubRequest.Kind.SUBSCRIPTION).stream()
        .filter(r -> r.id().equals(id))
        .findFirst()
        .orElseThrow()
        .cells();
  }

  @Test
  void theProcessThatAcceptedARequestReCutsItOnceInTheSharedControlPlane() throws Exception {
    TestingServer zk = keep(new TestingServer());
    Path principals = dir.resolve("principals.yaml");
    write(principals, A_OR_B, A_OR_B);
    Process a = process(zk.getConnectString(), "a", principals);
    Wait.until("a writes the drops", Duration.ofSeconds(20), () -> a.p().ingress().writes());
    Process b = process(zk.getConnectString(), "b", principals);

    String ad = "{\"host\":\"" + PUB + "\",\"filter\":\"true\"}";
    assertThat(b.send("pub", "POST", "/v1/advertisements", ad).statusCode()).isEqualTo(201);
    String sub = "{\"host\":\"" + SUB + "\",\"filter\":\"true\",\"port\":40000}";
    HttpResponse<String> s = b.send("sub", "POST", "/v1/subscriptions", sub);
    assertThat(s.statusCode()).as(s.body()).isEqualTo(201);
    String id = Rest.json(s).get("id").asText();
    DzSet before = cells(a, id);
    assertThat(a.dropsAt(90_000)).isFalse(); // inside the advertise region A ∨ B

    write(principals, A, A);
    assertThat(a.auth().reload()).isTrue(); // a accepted nothing: nothing to re-cut
    assertThat(b.auth().reload()).isTrue(); // b re-cuts both (the reload waits for it)
    assertThat(a.recut()).isZero();
    assertThat(b.recut()).isEqualTo(2);

    // the same id in the shared control plane, its cells those of a new subscription under A
    String again = "{\"host\":\"" + SUB + "\",\"filter\":\"true\",\"port\":40001}";
    HttpResponse<String> fresh = a.send("sub", "POST", "/v1/subscriptions", again);
    assertThat(fresh.statusCode()).as(fresh.body()).isEqualTo(201);
    DzSet cutToA = cells(a, Rest.json(fresh).get("id").asText());
    assertThat(cells(a, id)).isEqualTo(cutToA).isNotEqualTo(before);
    assertThat(a.service().requests(PubSubRequest.Kind.SUBSCRIPTION)).hasSize(2);
    assertThat(b.service().request(id))
        .get()
        .extracting(PubSubRequest::region)
        .isEqualTo(Optional.of(A));
    // the writer's drops follow the advertisement's new cover
    assertThat(a.dropsAt(90_000)).isTrue();
    assertThat(a.dropsAt(10)).isFalse();

    // withdrawn by its owner at b, where it was accepted: gone from the shared plane too
    assertThat(b.send("sub", "DELETE", "/v1/subscriptions/" + id, "").statusCode()).isEqualTo(200);
    assertThat(a.service().requests(PubSubRequest.Kind.SUBSCRIPTION)).hasSize(1);
  }

  private Process process(String connect, String member, Path principals) throws Exception {
    CuratorFramework client = keep(ZooKeeperClients.started(connect));
    ClusterProcess p = ClusterProcess.start(client, member, PubSubApiTest.QUOTES, open);
    PubSubService service = p.service();
    Authenticator auth = keep(Authenticator.load(principals, service::checkRegion, Duration.ZERO));
    ControllerApi api =
        keep(
            ControllerApi.start(
                p.net().controller(),
                Optional.of(service),
                Optional.empty(),
                Optional.empty(),
                new InetSocketAddress("::1", 0),
                Optional.of(auth),
                null,
                Optional.of(p.ingress())));
    return new Process(p, new Rest(api.address().getPort()), auth, api);
  }

  private <T extends AutoCloseable> T keep(T t) {
    open.add(t);
    return t;
  }
}
