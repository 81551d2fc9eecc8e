package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.StringLength;
import org.netpubsub.edge.broker.EdgeMessage;
import org.netpubsub.edge.dds.DdsStamp;

/**
 * What an MQTT site publishes (issue 25, docs/overlay-dds.md "Source timestamps"): a DDS sample's
 * source timestamp is taken off before MQTT subscribers see it, and nothing else is changed: not
 * bare CDR, not an MQTT payload that happens to start like a stamp, not the message's other fields.
 */
class MqttSiteStampTest {
  private static EdgeMessage m(String topic, byte[] payload, int qos, boolean retain) {
    return new EdgeMessage("paris", 42, topic, payload, qos, retain);
  }

  @Property(tries = 100)
  void aDdsSamplesStampIsTakenOffAndTheRestKept(
      @ForAll long timestamp, @ForAll byte[] body, @ForAll boolean retain) {
    byte[] cdr = new byte[body.length + 1]; // CDR starts with 0x00
    System.arraycopy(body, 0, cdr, 1, body.length);
    EdgeMessage in =
        m("dds/readings/demo::Reading/ab12", DdsStamp.stamp(timestamp, cdr), 1, retain);
    EdgeMessage out = MqttSite.unstamped(in);
    assertThat(out.payload()).isEqualTo(cdr);
    assertThat(out).usingRecursiveComparison().ignoringFields("payload").isEqualTo(in);
  }

  @Property(tries = 100)
  void anythingButAStampedDdsKeyIsPublishedAsItCame(
      @ForAll @AlphaChars @StringLength(min = 1, max = 12) String name,
      @ForAll long timestamp,
      @ForAll byte[] body) {
    // an MQTT topic whose payload looks exactly like a stamped sample: left alone
    EdgeMessage lookalike = m("plant/" + name, DdsStamp.stamp(timestamp, body), 0, false);
    assertThat(MqttSite.unstamped(lookalike)).isSameAs(lookalike);
    // a DDS key with bare CDR (or too short to carry a stamp): left alone
    byte[] bare = new byte[body.length + 1];
    System.arraycopy(body, 0, bare, 1, body.length);
    EdgeMessage cdr = m("dds/" + name + "/T/00", bare, 1, false);
    assertThat(MqttSite.unstamped(cdr)).isSameAs(cdr);
    EdgeMessage shortOne = m("dds/" + name + "/T/00", new byte[] {1, 2, 3}, 1, false);
    assertThat(MqttSite.unstamped(shortOne)).isSameAs(shortOne);
  }
}
