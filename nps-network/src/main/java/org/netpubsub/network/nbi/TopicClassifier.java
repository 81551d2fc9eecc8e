package org.netpubsub.network.nbi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * EMD's pre-classifier (Algorithm 1): decides which northbound apps get a packet-in, instead of
 * handing every packet-in to every app as Ryu and ONOS do ({@link #broadcast}, the baseline). Apps
 * subscribe to {@link NbiTopic}s and may (un)subscribe between any two classifications; an app that
 * is registered but subscribes to nothing still gets FOR_ALL packet-ins.
 *
 * <p>The order is Algorithm 1's: a packet-in matching a FOR_ALL topic goes to every app; else one
 * the {@link ReplyRule} answers goes to none; else it goes to the apps with a matching topic, found
 * through a {@link TopicIndex} rather than by testing every topic of every app.
 *
 * <p>Changes are not thread-safe; classifying only reads (the lazily parsed packet aside), so a
 * classifier nobody changes any more may be shared by any number of threads, as the bus's
 * copy-on-write snapshots are.
 */
public final class TopicClassifier {
  private final ReplyRule replyRule;
  private final TreeMap<String, Set<NbiTopic>> topicsByApp = new TreeMap<>();
  private final TopicIndex index = new TopicIndex();
  private final Set<NbiTopic> forAll = new LinkedHashSet<>();
  // Every app, rebuilt when the apps change: broadcast and FOR_ALL hand out this immutable
  // classification instead of copying the app set per packet-in (tens of ns per app), and
  // classifying stays read-only, so concurrent readers of an unchanging classifier are safe.
  private Classification toAll = Classification.forAll(List.of());
  // the same for a packet-in that matched a FOR_ALL topic, one per such topic
  private Map<NbiTopic, Classification> forAllHits = Map.of();

  /** A classifier whose core answers nothing. */
  public TopicClassifier() {
    this(ReplyRule.NONE);
  }

  public TopicClassifier(ReplyRule replyRule) {
    if (replyRule == null) {
      throw new IllegalArgumentException("a reply rule is required (ReplyRule.NONE for none)");
    }
    this.replyRule = replyRule;
  }

  /** Registers an app without topics; false if it was registered. */
  public boolean register(String app) {
    checkApp(app);
    if (topicsByApp.putIfAbsent(app, new LinkedHashSet<>()) != null) {
      return false;
    }
    everyAppChanged();
    return true;
  }

  /** Subscribes an app to a topic, registering the app if needed; false if it already was. */
  public boolean subscribe(String app, NbiTopic topic) {
    checkApp(app);
    if (topic == null) {
      throw new IllegalArgumentException("topic is required");
    }
    register(app); // a no-op for a registered app
    boolean added = topicsByApp.get(app).add(topic);
    if (added) {
      index.add(app, topic);
    }
    return added;
  }

  /**
   * Unsubscribes an app from a topic (the app stays registered); false if it was not subscribed.
   */
  public boolean unsubscribe(String app, NbiTopic topic) {
    Set<NbiTopic> topics = topicsByApp.get(app);
    if (topics == null || !topics.remove(topic)) {
      return false;
    }
    index.remove(app, topic);
    return true;
  }

  /** Removes an app and its subscriptions; false if it was not registered. */
  public boolean unregister(String app) {
    Set<NbiTopic> topics = topicsByApp.remove(app);
    if (topics == null) {
      return false;
    }
    topics.forEach(t -> index.remove(app, t));
    everyAppChanged();
    return true;
  }

  /** Packet-ins matching this topic go to every app (Algorithm 1's FOR_ALL). */
  public boolean addForAll(NbiTopic topic) {
    if (topic == null) {
      throw new IllegalArgumentException("topic is required");
    }
    if (!forAll.add(topic)) {
      return false;
    }
    everyAppChanged();
    return true;
  }

  public boolean removeForAll(NbiTopic topic) {
    if (!forAll.remove(topic)) {
      return false;
    }
    everyAppChanged();
    return true;
  }

  /** The registered apps, ascending. */
  public SortedSet<String> apps() {
    return Collections.unmodifiableSortedSet(new TreeSet<>(topicsByApp.keySet()));
  }

  /** The topics of an app, in subscription order (empty if unknown). */
  public Set<NbiTopic> topics(String app) {
    Set<NbiTopic> topics = topicsByApp.get(app);
    return topics == null ? Set.of() : Collections.unmodifiableSet(new LinkedHashSet<>(topics));
  }

  /** The number of distinct topics subscribed by any app. */
  public int distinctTopics() {
    return index.size();
  }

  /** Algorithm 1, lines 9–28, for one packet-in. Never throws, whatever the packet's bytes. */
  public Classification classify(PacketInView msg) {
    for (NbiTopic t : forAll) {
      if (t.matches(msg)) {
        return forAllHits.get(t);
      }
    }
    if (replyRule.answers(msg)) {
      return Classification.reply();
    }
    Set<String> apps = new TreeSet<>();
    List<NbiTopic> topics = new ArrayList<>(2);
    index.collect(msg, apps, topics);
    return Classification.topic(apps, topics);
  }

  /**
   * The baseline EMD improves on: every registered app gets every packet-in. Takes the packet only
   * so that {@code classifier::broadcast} and {@code classifier::classify} are interchangeable in
   * comparisons.
   */
  public Classification broadcast(PacketInView msg) {
    return everyApp();
  }

  private Classification everyApp() {
    return toAll;
  }

  /** Rebuilds the shared FOR_ALL classifications after the apps or the FOR_ALL topics changed. */
  private void everyAppChanged() {
    toAll = Classification.forAll(topicsByApp.keySet());
    Map<NbiTopic, Classification> hits = new HashMap<>();
    forAll.forEach(t -> hits.put(t, Classification.forAll(topicsByApp.keySet(), t)));
    forAllHits = hits;
  }

  private static void checkApp(String app) {
    if (app == null || app.isBlank()) {
      throw new IllegalArgumentException("an app id is a non-blank string");
    }
  }
}
