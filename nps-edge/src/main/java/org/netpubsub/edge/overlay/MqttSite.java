package org.netpubsub.edge.overlay;

import java.net.URI;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.netpubsub.edge.broker.BrokerEvent;
import org.netpubsub.edge.broker.EdgeMessage;
import org.netpubsub.edge.broker.FilterChange;
import org.netpubsub.edge.broker.LocalBroker;
import org.netpubsub.edge.broker.LocalSubscriptions;
import org.netpubsub.edge.dds.DdsStamp;

/**
 * An MQTT site: the same {@link LocalBroker} connection as the SNAPS agent ({@code #} with No
 * Local) and the broker log for the local subscriptions (docs/edge.md). Publishing is MQTT's only
 * publisher declaration, so it never calls {@code onPublisher}.
 */
final class MqttSite implements LocalSite, LocalBroker.Listener {
  private static final Logger LOG = Logger.getLogger(MqttSite.class.getName());

  private final LocalBroker mqtt;
  private final LocalSubscriptions subscriptions; // Paho's callback thread only
  private final Listener listener;
  private final Counters counters;

  MqttSite(URI local, String clientId, Listener listener, Counters counters) throws Exception {
    this.listener = listener;
    this.counters = counters;
    this.mqtt = new LocalBroker(local, clientId, this);
    this.subscriptions = new LocalSubscriptions(List.of(clientId));
  }

  @Override
  public void connect() throws Exception {
    mqtt.connect();
  }

  @Override
  public void publish(EdgeMessage m) throws Exception {
    mqtt.publish(unstamped(m));
  }

  /**
   * What MQTT subscribers get of a message: a DDS site's sample (a {@code dds/} key whose payload
   * carries the source timestamp, {@link DdsStamp}) as its bare CDR; anything else as it came (an
   * MQTT payload outside {@code dds/} is never touched, whatever its first bytes).
   */
  static EdgeMessage unstamped(EdgeMessage m) {
    if (!m.topic().startsWith("dds/") || DdsStamp.timestamp(m.payload()) == null) {
      return m;
    }
    return new EdgeMessage(
        m.origin(), m.sequence(), m.topic(), DdsStamp.cdr(m.payload()), m.qos(), m.retain());
  }

  @Override
  public void onMessage(String topic, MqttMessage m) {
    listener.onMessage(topic, new Message(m.getPayload(), m.getQos(), m.isRetained()));
  }

  @Override
  public void onLogEvent(BrokerEvent event) {
    for (FilterChange c : subscriptions.apply(event)) {
      listener.onSubscriber(c.filter(), c.present());
    }
  }

  @Override
  public void failed(String topic, RuntimeException e) {
    counters.drop("edge_error");
    LOG.log(Level.WARNING, "local message on '" + topic + "'", e);
  }

  @Override
  public void close() {
    mqtt.close();
  }
}
