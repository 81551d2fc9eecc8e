package org.netpubsub.controller.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.controller.app.ControllerConfig;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.controller.testing.Cabling;
import org.netpubsub.controller.testing.Rest;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;

/**
 * A request whose flows would loop with what the switches already hold is refused over REST with
 * 409, naming the packet class and the path, and nothing of it is installed: two simulated switches
 * joined by two links, where a northbound app sends content arriving at switch 2 by one link back
 * by the other, so PLEROMA's flow at switch 1 (towards switch 2 over either link) would send it
 * round for ever.
 */
class UnsafeRequestApiTest {
  private static final Duration T = Duration.ofSeconds(10);
  private final Map<Long, SimulatedOpenFlowSwitch> switches = new ConcurrentHashMap<>();
  private final Cabling cabling = new Cabling(switches);
  private NetworkController controller;
  private ControllerApi api;

  @BeforeEach
  void start() throws Exception {
    controller = NetworkController.start(ControllerConfig.defaults().withPort("127.0.0.1", 0));
    PubSubService service =
        PubSubService.attach(
            controller, new SpatialIndex(PubSubApiTest.QUOTES, 12), PubSubLimits.DEFAULTS);
    api = ControllerApi.start(controller, Optional.of(service), new InetSocketAddress("::1", 0));
    cabling.cable(1, 1, 2, 1).cable(1, 2, 2, 2);
    for (long dpid = 1; dpid <= 2; dpid++) {
      SimulatedOpenFlowSwitch sw =
          SimulatedOpenFlowSwitch.builder().dpid(dpid).ports(1, 2, 3).build();
      switches.put(dpid, sw);
      sw.connect(new InetSocketAddress("127.0.0.1", controller.openflowAddress().getPort())).get();
    }
    Wait.until("two links", T, cabling::relay, () -> controller.topology().links().size() == 2);
    controller.registerHost(host(1, 1)).get();
    controller.registerHost(host(2, 2)).get();
    // the routing engines learn a topology in the task that installs its routes
    Wait.until(
        "switch 1's route to host 2",
        T,
        cabling::relay,
        () ->
            controller.desired(1).flows().stream()
                .anyMatch(
                    f ->
                        f.match().ipv6Dst() != null
                            && f.match().ipv6Dst().value().equals(host(2, 2).address())));
  }

  @AfterEach
  void stop() {
    api.close();
    switches.values().forEach(SimulatedOpenFlowSwitch::close);
    controller.close();
  }

  private static Host host(int i, long dpid) {
    return new Host(
        Ipv6Address.parse("fd6e:7073:1::" + i),
        new MacAddress(0x0200_0000_0000L + i),
        new SwitchPort(dpid, 3));
  }

  /** Content entering by {@code inPort} leaves by {@code out}, above every content flow. */
  private static SwitchMod turn(long inPort, long out) {
    return SwitchMod.of(
        FlowMod.add(
            FlowEntry.builder()
                .priority(SwitchLayout.CONTENT_PRIORITY_BASE + SwitchLayout.MAX_DZ_LENGTH + 1)
                .match(Match.builder().ipv6().ipv6Dst("ff00::/8").inPort(inPort).build())
                .apply(new Action.Output(out))
                .build()));
  }

  @Test
  void aRequestWhoseFlowsWouldLoopIsRefusedWith409AndItsPath() throws Exception {
    SortedMap<Long, List<SwitchMod>> turns = new TreeMap<>();
    turns.put(2L, List.of(turn(1, 2), turn(2, 1)));
    controller
        .callOnLoop(() -> controller.apply(Owner.NORTHBOUND_APPS, turns))
        .thenCompose(x -> x)
        .get(10, TimeUnit.SECONDS);
    Rest rest = new Rest(api.address().getPort());
    HttpResponse<String> sub =
        rest.send(
            "POST",
            "/v1/subscriptions",
            "{\"host\":\"fd6e:7073:1::2\",\"filter\":\"price > 50000\",\"port\":40001}");
    assertThat(sub.statusCode()).as(sub.body()).isEqualTo(201);

    String ad = "{\"host\":\"fd6e:7073:1::1\",\"filter\":\"true\"}";
    HttpResponse<String> refused = rest.send("POST", "/v1/advertisements", ad);
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
    JsonNode error = Rest.json(refused).get("error");
    assertThat(error.get("code").asText()).isEqualTo("conflict");
    assertThat(error.get("message").asText())
        .contains("loop for ipv6_dst class of ff")
        .containsAnyOf("1/2 -> 2/1 -> 1/2", "1/1 -> 2/2 -> 1/1");
    assertThat(switches.get(1L).flows())
        .as("nothing of the refused request is installed")
        .noneMatch(f -> f.cookie() == ContentFlows.COOKIE);
    assertThat(controller.desired(1).flows()).noneMatch(f -> f.cookie() == ContentFlows.COOKIE);
    // the request does not stand: the same one is refused the same way, not taken as a repeat
    assertThat(rest.send("POST", "/v1/advertisements", ad).statusCode()).isEqualTo(409);
  }
}
