package org.netpubsub.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.IndexLayout;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.SchemaWriter;
import org.netpubsub.content.schema.StringCoding;

/** Where a publisher sends an event: its content address (PLEROMA) or its query address (Camus). */
class PubSubConfigTest {
  static final Schema QUOTES =
      Schema.builder("q").stringAttribute("symbol", 4).intAttribute("price", 0, 65535).build();

  @Test
  void camusRoutingCarriesTheQueryFieldsInTheAddress() throws Exception {
    PubSubConfig c = new PubSubConfig(QUOTES, new SpatialIndex(QUOTES, 8), 7073, "camus-mr");
    Event e = Event.builder(QUOTES).set("symbol", "IBM").set("price", 0x1234).build();
    // ff0e, then symbol (4 NUL-padded bytes) and price (16 bits) as the schema's spec packs them
    assertThat(c.address(e)).isEqualTo(InetAddress.getByName("ff0e:4942:4d00:1234::"));
    PubSubConfig p = new PubSubConfig(QUOTES, new SpatialIndex(QUOTES, 8), 7073);
    assertThat(p.address(e)).isEqualTo(new SpatialIndex(QUOTES, 8).address(e).address());
    assertThatThrownBy(() -> new PubSubConfig(QUOTES, null, 7073, "ospf"))
        .hasMessageContaining("unknown routing");
  }

  @Test
  void theControllersLayoutTravelsInItsSchema() throws Exception {
    Schema laid =
        QUOTES.withLayout(
            new IndexLayout(
                List.of("symbol", "symbol", "price", "price", "price"),
                Map.of("symbol", StringCoding.Dictionary.of(List.of("IBM", "MSFT")))));
    SpatialIndex controller = new SpatialIndex(laid, 5);
    PubSubConfig c =
        PubSubConfig.of(SchemaWriter.toYaml(laid), laid.id(), 5, List.of("symbol", "price"), 7073);
    assertThat(c.schema().layout()).isEqualTo(laid.layout());
    Event e = Event.builder(QUOTES).set("symbol", "MSFT").set("price", 40000).build();
    // MSFT is value 1 of 2 (+ other): 2 bits → 01; price 40000 of 65536, 3 bits → 100
    assertThat(controller.dz(e).bits()).isEqualTo("01100");
    assertThat(c.address(e)).isEqualTo(controller.address(e).address());
  }
}
