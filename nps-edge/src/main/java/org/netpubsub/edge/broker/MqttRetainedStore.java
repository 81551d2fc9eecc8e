package org.netpubsub.edge.broker;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 * Reads an unmodified Mosquitto's retained messages as any client can: a short-lived connection
 * subscribes to {@code #} (the broker sends every stored retained message, flagged retained) and to
 * a private marker topic under {@code $nps/} (which {@code #} does not match, nor Agent-Sub
 * forward), then publishes the marker: the broker queues it behind the retained messages, so when
 * it arrives they all have. {@code $}-topics are not read (they are never forwarded either).
 */
final class MqttRetainedStore {
  private static final long TIMEOUT_SECONDS = 10;

  private MqttRetainedStore() {}

  /** How the ids of reading connections start (the agent's broker-log reader ignores them). */
  static String clientIdPrefix(String edge) {
    return "nps-edge-replay-" + edge + "-";
  }

  static List<EdgeMessage> read(URI broker, String edge)
      throws MqttException, InterruptedException, TimeoutException {
    String id = Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    String marker = "$nps/replay/" + id;
    List<EdgeMessage> out = new ArrayList<>();
    CountDownLatch done = new CountDownLatch(1);
    MqttClient c =
        new MqttClient(
            "tcp://" + broker.getHost() + ":" + broker.getPort(),
            clientIdPrefix(edge) + id, // unique: a restarted agent's read never takes over ours
            new MemoryPersistence());
    try {
      c.setCallback(
          new MqttCallback() {
            @Override
            public void messageArrived(String topic, MqttMessage m) {
              if (topic.equals(marker)) {
                done.countDown();
              } else if (m.isRetained() && done.getCount() > 0) {
                synchronized (out) {
                  out.add(new EdgeMessage(edge, 0, topic, m.getPayload(), m.getQos(), true));
                }
              }
            }

            @Override
            public void disconnected(MqttDisconnectResponse r) {}

            @Override
            public void mqttErrorOccurred(MqttException e) {}

            @Override
            public void deliveryComplete(IMqttToken t) {}

            @Override
            public void connectComplete(boolean reconnect, String uri) {}

            @Override
            public void authPacketArrived(int code, MqttProperties p) {}
          });
      MqttConnectionOptions o = new MqttConnectionOptions();
      o.setCleanStart(true);
      o.setSessionExpiryInterval(0L);
      o.setConnectionTimeout(5);
      c.connect(o);
      MqttSubscription all = new MqttSubscription("#", 1);
      all.setRetainAsPublished(true);
      c.subscribe(new MqttSubscription[] {all, new MqttSubscription(marker, 1)});
      MqttMessage mark = new MqttMessage("end".getBytes(StandardCharsets.UTF_8));
      mark.setQos(1);
      c.publish(marker, mark);
      if (!done.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        throw new TimeoutException("the broker's retained messages did not end in time");
      }
      synchronized (out) {
        return List.copyOf(out);
      }
    } finally {
      try {
        if (c.isConnected()) {
          c.disconnect(2000);
        }
      } finally {
        c.close(true);
      }
    }
  }
}
