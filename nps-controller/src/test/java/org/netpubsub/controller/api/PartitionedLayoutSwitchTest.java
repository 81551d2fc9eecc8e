package org.netpubsub.controller.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.SchemaWriter;
import org.netpubsub.controller.controlplane.ControlPlaneSettings;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.testing.OneSwitchNetwork;
import org.netpubsub.controller.testing.Rest;
import org.netpubsub.network.controlplane.Partitions;

/**
 * The partitioned control plane cannot hold two layouts: a layout switch is refused 409, the index
 * keeps its version, and requests are accepted again at once.
 */
class PartitionedLayoutSwitchTest {
  OneSwitchNetwork net;
  PubSubService service;
  ControllerApi api;
  Rest rest;

  @BeforeEach
  void start() throws Exception {
    net = OneSwitchNetwork.startController();
    service =
        PubSubService.attachPartitioned(
            net.controller(),
            new SpatialIndex(LayoutSwitchApiTest.QUOTES, 12),
            PubSubLimits.DEFAULTS,
            ControlPlaneSettings.of(2, Partitions.uniform(4)));
    api =
        ControllerApi.start(
            net.controller(), Optional.of(service), new InetSocketAddress("::1", 0));
    net.connectSwitch(3);
    rest = new Rest(api.address().getPort());
  }

  @AfterEach
  void stop() {
    api.close();
    net.close();
  }

  @Test
  void aLayoutSwitchIsRefusedAndNothingChanges() throws Exception {
    String body =
        new ObjectMapper()
            .createObjectNode()
            .put("schema", SchemaWriter.toYaml(LayoutSwitchApiTest.QUOTES))
            .put("length", 10)
            .toString();
    HttpResponse<String> put = rest.send("PUT", "/v1/pubsub/layout", body);
    assertThat(put.statusCode()).as(put.body()).isEqualTo(409);
    assertThat(put.body()).contains("PLEROMA routing on the controller loop");
    assertThat(service.indexVersion().version()).isEqualTo(1);
    HttpResponse<String> sub = rest.send("POST", "/v1/subscriptions", LayoutSwitchApiTest.SUB);
    assertThat(sub.statusCode()).as(sub.body()).isEqualTo(201);
  }
}
