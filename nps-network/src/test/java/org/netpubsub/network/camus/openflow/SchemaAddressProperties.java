package org.netpubsub.network.camus.openflow;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.address.SchemaAddress;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.event.EventArbitraries;

/**
 * A publisher's address of an event under Camus routing ({@link SchemaAddress}, nps-content, which
 * the client library uses) is the one the controller's tables match: {@link QueryAddressLayout} of
 * the compiler's spec of the schema, with its left-out fields.
 */
class SchemaAddressProperties {
  @Property(tries = 500)
  void publishersAddressEventsAsTheTablesMatchThem(@ForAll("events") Event event) {
    QueryAddressLayout layout = QueryAddressLayout.of(MessageSpec.fromSchema(event.schema()));
    SchemaAddress schemaAddress = SchemaAddress.of(event.schema());
    assertThat(schemaAddress.address(event)).isEqualTo(layout.address(event));
    int carried = 0;
    for (int f = 0; f < schemaAddress.packing().size(); f++) {
      if (schemaAddress.packing().carried(f)) {
        assertThat(schemaAddress.packing().offset(f)).isEqualTo(layout.offset(carried++));
      }
    }
    assertThat(carried).isEqualTo(layout.carried().fields().size());
  }

  @Provide
  Arbitrary<Event> events() {
    return EventArbitraries.events(0);
  }
}
