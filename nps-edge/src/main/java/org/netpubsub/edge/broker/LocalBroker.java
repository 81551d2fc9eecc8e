package org.netpubsub.edge.broker;

import java.io.Closeable;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.paho.mqttv5.client.IMqttToken;
import org.eclipse.paho.mqttv5.client.MqttCallback;
import org.eclipse.paho.mqttv5.client.MqttClient;
import org.eclipse.paho.mqttv5.client.MqttConnectionOptions;
import org.eclipse.paho.mqttv5.client.MqttDisconnectResponse;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.eclipse.paho.mqttv5.common.MqttSubscription;
import org.eclipse.paho.mqttv5.common.packet.MqttProperties;

/**
 * One MQTT 5 connection (Paho) to an unmodified local broker, as every edge component needs it
 * (docs/edge.md): subscribed to {@code #} with No Local (what this connection publishes never comes
 * back: no loops, no duplicates) and to the broker log (for the local subscriptions). Shared by the
 * SNAPS agent and the overlay's edge broker. Listener calls run on Paho's callback thread.
 */
public final class LocalBroker implements Closeable, MqttCallback {
  private static final Logger LOG = Logger.getLogger(LocalBroker.class.getName());

  /** What the connection hands its owner; exceptions are caught and reported to {@link #failed}. */
  public interface Listener {
    /** A message a local client published (never {@code $}-topics, never our own publishes). */
    void onMessage(String topic, MqttMessage message);

    /** A broker-log event about a local client. */
    void onLogEvent(BrokerEvent event);

    /** A listener call threw (an exception into Paho would drop the connection). */
    void failed(String topic, RuntimeException e);
  }

  private final MqttClient mqtt;
  private final Listener listener;
  private final ExecutorService resubscriber;
  private volatile boolean closed;

  public LocalBroker(URI broker, String clientId, Listener listener) throws MqttException {
    this.listener = listener;
    this.mqtt =
        new MqttClient(
            "tcp://" + broker.getHost() + ":" + broker.getPort(),
            clientId,
            new MemoryPersistence());
    this.resubscriber =
        Executors.newSingleThreadExecutor(
            Thread.ofPlatform().daemon().name("nps-resubscribe-" + clientId).factory());
  }

  public String clientId() {
    return mqtt.getClientId();
  }

  /** Connects (clean start, automatic reconnect that subscribes again) and subscribes. */
  public void connect() throws MqttException {
    MqttConnectionOptions o = new MqttConnectionOptions();
    o.setCleanStart(true);
    o.setSessionExpiryInterval(0L);
    o.setAutomaticReconnect(true);
    o.setAutomaticReconnectDelay(1, 5);
    o.setConnectionTimeout(5);
    mqtt.setCallback(this);
    mqtt.connect(o);
    subscribe();
  }

  private void subscribe() throws MqttException {
    MqttSubscription all = new MqttSubscription("#", 2);
    all.setNoLocal(true); // never receive what we publish: no loops, no duplicates
    all.setRetainAsPublished(true); // forward the retain flag as the publisher set it
    all.setRetainHandling(2); // stored retained messages were forwarded when published
    MqttSubscription log = new MqttSubscription(MosquittoLog.LOG_FILTER, 0);
    log.setRetainHandling(2);
    mqtt.subscribe(new MqttSubscription[] {log, all});
  }

  /**
   * Publishes a message from another edge: QoS min(QoS, 1) (exactly-once is not kept across the
   * edge hop, docs/edge.md), retain flag as sent. When the broker's receive maximum is reached (too
   * many QoS 1 publishes unacknowledged), waits for acknowledgements up to 5 s: dropping there
   * would lose a message the overlay already counts as delivered.
   */
  public void publish(EdgeMessage m) throws MqttException {
    MqttMessage out = new MqttMessage(m.payload());
    out.setQos(Math.min(m.qos(), 1));
    out.setRetained(m.retain());
    PahoPublish.publish(mqtt, m.topic(), out, () -> closed);
  }

  @Override
  public void messageArrived(String topic, MqttMessage message) {
    try {
      if (topic.startsWith("$SYS/broker/log/")) {
        MosquittoLog.parse(topic, new String(message.getPayload(), StandardCharsets.UTF_8))
            .ifPresent(listener::onLogEvent);
      } else if (!topic.startsWith("$")) {
        listener.onMessage(topic, message);
      }
    } catch (RuntimeException e) {
      listener.failed(topic, e);
    }
  }

  @Override
  public void connectComplete(boolean reconnect, String serverUri) {
    if (reconnect) {
      // clean start: the broker forgot the subscriptions (not from the callback thread: Paho)
      resubscriber.execute(
          () -> {
            try {
              subscribe();
            } catch (MqttException e) {
              LOG.warning("subscribing again: " + e);
            }
          });
    }
  }

  @Override
  public void disconnected(MqttDisconnectResponse r) {
    if (!closed) {
      LOG.warning("broker connection lost: " + r);
    }
  }

  @Override
  public void mqttErrorOccurred(MqttException e) {
    LOG.warning("MQTT error: " + e);
  }

  @Override
  public void deliveryComplete(IMqttToken token) {}

  @Override
  public void authPacketArrived(int reasonCode, MqttProperties properties) {}

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (mqtt.isConnected()) {
        mqtt.disconnect(2000);
      }
    } catch (MqttException e) {
      LOG.log(Level.FINE, "disconnect", e);
    }
    try {
      mqtt.close(true);
    } catch (MqttException e) {
      LOG.log(Level.FINE, "close", e);
    }
    resubscriber.shutdownNow();
  }
}
