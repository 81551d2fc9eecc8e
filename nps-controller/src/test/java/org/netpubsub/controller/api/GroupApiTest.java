package org.netpubsub.controller.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.app.GroupJson;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.multicast.MulticastGroups;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.testing.OneSwitchNetwork;
import org.netpubsub.controller.testing.Rest;
import org.netpubsub.network.multicast.GroupForwarding;
import org.netpubsub.network.multicast.GroupSpec;
import org.netpubsub.network.multicast.SegmentAddresses;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.SwitchPort;

/**
 * Multicast groups over real HTTP against a controller with one simulated switch: a PUT answers
 * after the switch holds the group's segment, a DELETE removes it, and bad requests are refused
 * with their reason.
 */
class GroupApiTest {
  static final long DPID = OneSwitchNetwork.DPID;

  OneSwitchNetwork net;
  NetworkController controller;
  ControllerApi api;
  Rest rest;
  SimulatedOpenFlowSwitch sw;
  MulticastGroups groups;

  @BeforeEach
  void start() throws Exception {
    net = OneSwitchNetwork.startController();
    controller = net.controller();
    groups = MulticastGroups.attach(controller);
    api =
        ControllerApi.start(
            controller, Optional.empty(), Optional.of(groups), new InetSocketAddress("::1", 0));
    // the hosts' routes are installed by reconciles that may still run when connectSwitch returns;
    // a test that compares the switch with the desired state starts once they are done
    sw = net.connectSwitch(4).awaitDesiredState().sw();
  }

  @AfterEach
  void stop() {
    api.close();
    net.close();
  }

  static Host host(int i) {
    return OneSwitchNetwork.host(i);
  }

  @Test
  void changesDuringARestartsHoldAndUnkeptChangesAre503() throws Exception {
    String body = "{\"members\":[\"fd6e:7073:1::2\"],\"sources\":[\"fd6e:7073:1::1\"]}";
    AtomicReference<String> held = new AtomicReference<>("restoring");
    MulticastGroups.Journal store =
        new MulticastGroups.Journal() {
          @Override
          public CompletableFuture<Void> put(GroupSpec spec) {
            return CompletableFuture.failedFuture(new IllegalStateException("disk full"));
          }

          @Override
          public CompletableFuture<Void> removed(String name) {
            return CompletableFuture.completedFuture(null);
          }
        };
    groups.restore(List.of(), store, held::get).join();
    HttpResponse<String> waiting = send("PUT", "/v1/groups/a", body);
    assertThat(waiting.statusCode()).as(waiting.body()).isEqualTo(503);
    assertThat(waiting.headers().firstValue("Retry-After")).hasValue("1");
    assertThat(send("GET", "/v1/groups/a", null).statusCode()).as("nothing put").isEqualTo(404);
    held.set(null);
    HttpResponse<String> unkept = send("PUT", "/v1/groups/a", body);
    assertThat(unkept.statusCode()).as(unkept.body()).isEqualTo(503);
    assertThat(unkept.body()).contains("the store did not keep the change: disk full");
  }

  @Test
  void newGroupsBeyondTheCapAre429NamingTheLimit() throws Exception {
    groups.maxGroups(2);
    String body = "{\"members\":[\"fd6e:7073:1::2\"],\"sources\":[\"fd6e:7073:1::1\"]}";
    assertThat(send("PUT", "/v1/groups/a", body).statusCode()).isEqualTo(200);
    assertThat(send("PUT", "/v1/groups/b", body).statusCode()).isEqualTo(200);
    HttpResponse<String> third = send("PUT", "/v1/groups/c", body);
    assertThat(third.statusCode()).as(third.body()).isEqualTo(429);
    assertThat(third.body()).contains("2 multicast groups already (the limit of groups)");
    assertThat(send("GET", "/v1/groups/c", null).statusCode()).isEqualTo(404);
    assertThat(send("PUT", "/v1/groups/b", body).statusCode()).isEqualTo(200); // a change: fine
  }

  @Test
  void hostsBeyondTheCapOfAPortAre429NamingTheLimit() throws Exception {
    SwitchPort at = new SwitchPort(DPID, 4);
    int before = controller.topology().hostsAt(at).size();
    for (int i = before; i < ControllerApi.MAX_HOSTS_PER_PORT; i++) {
      HttpResponse<String> r = send("POST", "/v1/hosts", hostAt4(0x100 + i));
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }
    HttpResponse<String> over = send("POST", "/v1/hosts", hostAt4(0x999));
    assertThat(over.statusCode()).as(over.body()).isEqualTo(429);
    assertThat(over.body()).contains("port 4 has 64 hosts already (the limit of hosts per port)");
    assertThat(controller.topology().hostsAt(at)).hasSize(ControllerApi.MAX_HOSTS_PER_PORT);
  }

  @Test
  void hostRegistrationsRefusedAtAFullPortAreCountedByReason() throws Exception {
    SwitchPort at = new SwitchPort(DPID, 4);
    for (int i = controller.topology().hostsAt(at).size();
        i < ControllerApi.MAX_HOSTS_PER_PORT;
        i++) {
      assertThat(send("POST", "/v1/hosts", hostAt4(0x100 + i)).statusCode()).isEqualTo(200);
    }
    assertThat(send("POST", "/v1/hosts", hostAt4(0x999)).statusCode()).isEqualTo(429);
    Host known = host(1); // attached elsewhere: moving it to the full port is refused too
    String move =
        String.format(
            "{\"address\":\"%s\",\"mac\":\"%s\",\"dpid\":\"%x\",\"port\":4}",
            known.address(), known.mac(), DPID);
    assertThat(send("POST", "/v1/hosts", move).statusCode()).isEqualTo(429);
    assertThat(send("POST", "/v1/hosts", move).statusCode()).isEqualTo(429);

    String metrics = send("GET", "/metrics", null).body();
    assertThat(metrics)
        .contains("nps_hosts_refused_total{reason=\"register_port_full\"} 1.0")
        .contains("nps_hosts_refused_total{reason=\"register_move_to_full_port\"} 2.0")
        // neighbour discovery refused nothing: its reasons stay apart
        .contains("nps_hosts_refused_total{reason=\"port_full\"} 0.0")
        .contains("nps_hosts_refused_total{reason=\"move_to_full_port\"} 0.0");
  }

  private static String hostAt4(int i) {
    return String.format(
        "{\"address\":\"fd6e:7073:1::%x\",\"mac\":\"02:00:00:00:%02x:%02x\",\"dpid\":\"%x\",\"port\":4}",
        i, (i >> 8) & 0xff, i & 0xff, DPID);
  }

  @Test
  void aPutAnswersOnceTheSwitchHoldsTheSegmentAndADeleteRemovesIt() throws Exception {
    String path = "/v1/groups/" + URLEncoder.encode("plant/line-1/temp", StandardCharsets.UTF_8);
    HttpResponse<String> put =
        send(
            "PUT",
            path,
            "{\"members\":[\"fd6e:7073:1::2\",\"fd6e:7073:1::3\",\"fd6e:7073:1::4\","
                + "\"fd6e:7073:1::9\"],\"sources\":[\"fd6e:7073:1::1\"]}");
    assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
    JsonNode g = json(put);
    assertThat(g.get("name").asText()).isEqualTo("plant/line-1/temp");
    assertThat(g.get("unknown_hosts").get(0).asText()).isEqualTo("fd6e:7073:1::9");
    JsonNode source = g.get("sources").get("fd6e:7073:1::1");
    Ipv6Address sendTo = Ipv6Address.parse(source.get("send_to").asText());
    assertThat(SegmentAddresses.dpid(sendTo)).isEqualTo(DPID);
    assertThat(source.get("segments").asInt()).isEqualTo(1);
    // its tree: the entry to the segment, and the segment's three copies, all on the one switch
    String d = GroupJson.dpid(DPID);
    assertThat(source.get("tree").toString())
        .isEqualTo(
            "[{\"from\":\"%s\",\"to\":\"%s\"},".formatted(d, d)
                + "{\"from\":\"%s\",\"to\":\"%s\",\"member\":\"fd6e:7073:1::2\"},".formatted(d, d)
                + "{\"from\":\"%s\",\"to\":\"%s\",\"member\":\"fd6e:7073:1::3\"},".formatted(d, d)
                + "{\"from\":\"%s\",\"to\":\"%s\",\"member\":\"fd6e:7073:1::4\"}]".formatted(d, d));
    // answered after the barrier: the switch holds one group replicating to the three members
    List<GroupEntry> groups = sw.groups();
    assertThat(groups).hasSize(1);
    assertThat(groups.get(0).buckets()).hasSize(3);
    assertThat(groups.get(0).toString())
        .contains("set_field:fd6e:7073:1::4->ipv6_dst")
        .contains("output:4");
    assertThat(sw.flows())
        .anyMatch(f -> f.cookie() == GroupForwarding.COOKIE && f.toString().contains(sendTo + ""));
    assertThat(new HashSet<>(sw.flows())).isEqualTo(new HashSet<>(controller.desiredFlows(DPID)));

    JsonNode all = json(send("GET", "/v1/groups", null));
    assertThat(all.get("segments").asInt()).isEqualTo(1);
    assertThat(all.get("groups")).hasSize(1);
    assertThat(send("GET", path, null).statusCode()).isEqualTo(200);

    // one member left: the segment goes, and the source still sends to its entry SID
    HttpResponse<String> one =
        send("PUT", path, "{\"members\":[\"fd6e:7073:1::3\"],\"sources\":[\"fd6e:7073:1::1\"]}");
    assertThat(json(one).get("sources").get("fd6e:7073:1::1").get("send_to").asText())
        .isEqualTo(sendTo.toString());
    assertThat(sw.flows())
        .anyMatch(
            f ->
                f.toString().contains(sendTo + "")
                    && f.toString().contains("set_field:fd6e:7073:1::3->ipv6_dst"));
    assertThat(sw.groups()).isEmpty();

    assertThat(send("DELETE", path, null).statusCode()).isEqualTo(200);
    assertThat(send("DELETE", path, null).statusCode()).isEqualTo(404);
    assertThat(send("GET", path, null).statusCode()).isEqualTo(404);
    assertThat(sw.flows()).noneMatch(f -> f.cookie() == GroupForwarding.COOKIE);
  }

  @Test
  void badRequestsAreRefusedWithTheirReason() throws Exception {
    HttpResponse<String> strategy =
        send("PUT", "/v1/groups/t", "{\"members\":[],\"sources\":[],\"strategy\":\"flood\"}");
    assertThat(strategy.statusCode()).isEqualTo(400);
    assertThat(json(strategy).at("/error/message").asText()).contains("direct or rp");
    assertThat(json(strategy).at("/error/field").asText()).isEqualTo("strategy");
    HttpResponse<String> members = send("PUT", "/v1/groups/t", "{\"sources\":[]}");
    assertThat(members.statusCode()).isEqualTo(400);
    assertThat(json(members).at("/error/message").asText()).contains("members");
    assertThat(json(members).at("/error/field").asText()).isEqualTo("members");
    HttpResponse<String> address =
        send("PUT", "/v1/groups/t", "{\"members\":[\"not-an-address\"],\"sources\":[]}");
    assertThat(address.statusCode()).isEqualTo(400);
    assertThat(send("PUT", "/v1/groups/t", "{\"members\":").statusCode()).isEqualTo(400);
    assertThat(send("POST", "/v1/groups", "{}").statusCode()).isEqualTo(405);
    assertThat(send("GET", "/v1/groups", null).statusCode()).isEqualTo(200);
  }

  private HttpResponse<String> send(String method, String path, String body) throws Exception {
    if (rest == null || rest.port() != api.address().getPort()) {
      rest = new Rest(api.address().getPort()); // one client: requests reuse its connection
    }
    return rest.send(method, path, body);
  }

  private static JsonNode json(HttpResponse<String> r) throws Exception {
    return Rest.json(r);
  }
}
