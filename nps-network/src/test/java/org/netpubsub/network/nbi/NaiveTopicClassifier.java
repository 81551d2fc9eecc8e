package org.netpubsub.network.nbi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Algorithm 1 the obvious way: for every app, for every topic, check the match. */
final class NaiveTopicClassifier {
  private final ReplyRule reply;
  private final Map<String, Set<NbiTopic>> apps = new LinkedHashMap<>();
  private final List<NbiTopic> forAll = new ArrayList<>();

  NaiveTopicClassifier(ReplyRule reply) {
    this.reply = reply;
  }

  boolean subscribe(String app, NbiTopic t) {
    return apps.computeIfAbsent(app, a -> new LinkedHashSet<>()).add(t);
  }

  boolean unsubscribe(String app, NbiTopic t) {
    return apps.containsKey(app) && apps.get(app).remove(t);
  }

  boolean unregister(String app) {
    return apps.remove(app) != null;
  }

  boolean addForAll(NbiTopic t) {
    if (forAll.contains(t)) {
      return false;
    }
    return forAll.add(t);
  }

  boolean removeForAll(NbiTopic t) {
    return forAll.remove(t);
  }

  Set<NbiTopic> topics(String app) {
    return apps.getOrDefault(app, Set.of());
  }

  Classification classify(PacketInView p) {
    for (NbiTopic t : forAll) {
      if (t.matches(p)) {
        return Classification.forAll(apps.keySet(), t);
      }
    }
    if (reply.answers(p)) {
      return Classification.reply();
    }
    Set<String> out = new TreeSet<>();
    Set<NbiTopic> matched = new LinkedHashSet<>();
    apps.forEach(
        (app, topics) -> {
          for (NbiTopic t : topics) {
            if (t.matches(p)) {
              out.add(app);
              matched.add(t);
            }
          }
        });
    return Classification.topic(out, matched);
  }
}
