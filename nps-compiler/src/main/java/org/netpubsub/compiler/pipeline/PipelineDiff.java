package org.netpubsub.compiler.pipeline;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one update changed in the tables: per field table and in the leaf table, the entries to add
 * and to remove, and the groups created and deleted. Apply additions first, from the leaf table
 * back to the first (a new state's entries before the entries that lead to it), then removals from
 * the first table on: new states never reuse an id freed by the same update, so the old paths stay
 * whole until the end.
 */
public final class PipelineDiff {
  private final List<List<FieldEntry>> added = new ArrayList<>();
  private final List<List<FieldEntry>> removed = new ArrayList<>();
  private final List<LeafEntry> leavesAdded = new ArrayList<>();
  private final List<LeafEntry> leavesRemoved = new ArrayList<>();
  private final List<Group> groupsAdded = new ArrayList<>();
  private final List<Group> groupsRemoved = new ArrayList<>();

  PipelineDiff(int fields) {
    for (int f = 0; f < fields; f++) {
      added.add(new ArrayList<>());
      removed.add(new ArrayList<>());
    }
  }

  public List<FieldEntry> added(int field) {
    return Collections.unmodifiableList(added.get(field));
  }

  public List<FieldEntry> removed(int field) {
    return Collections.unmodifiableList(removed.get(field));
  }

  public List<LeafEntry> leavesAdded() {
    return Collections.unmodifiableList(leavesAdded);
  }

  public List<LeafEntry> leavesRemoved() {
    return Collections.unmodifiableList(leavesRemoved);
  }

  public List<Group> groupsAdded() {
    return Collections.unmodifiableList(groupsAdded);
  }

  public List<Group> groupsRemoved() {
    return Collections.unmodifiableList(groupsRemoved);
  }

  /** Entries and groups added plus removed: the write operations the update costs. */
  void add(int field, FieldEntry e) {
    added.get(field).add(e);
  }

  void remove(int field, FieldEntry e) {
    removed.get(field).add(e);
  }

  void addLeaf(LeafEntry e) {
    leavesAdded.add(e);
  }

  void removeLeaf(LeafEntry e) {
    leavesRemoved.add(e);
  }

  void addGroup(Group g) {
    groupsAdded.add(g);
  }

  void removeGroup(Group g) {
    groupsRemoved.add(g);
  }

  /** Drops what is both added and removed (only the root's state 0 can be both). */
  void cancelCommon() {
    for (int f = 0; f < added.size(); f++) {
      cancel(added.get(f), removed.get(f));
    }
    cancel(leavesAdded, leavesRemoved);
  }

  private static <T> void cancel(List<T> plus, List<T> minus) {
    if (plus.isEmpty() || minus.isEmpty()) {
      return;
    }
    java.util.Set<T> both = new java.util.HashSet<>(plus);
    both.retainAll(new java.util.HashSet<>(minus));
    plus.removeAll(both);
    minus.removeAll(both);
  }

  public int size() {
    int n = leavesAdded.size() + leavesRemoved.size() + groupsAdded.size() + groupsRemoved.size();
    for (int f = 0; f < added.size(); f++) {
      n += added.get(f).size() + removed.get(f).size();
    }
    return n;
  }

  public boolean isEmpty() {
    return size() == 0;
  }

  @Override
  public String toString() {
    return "diff of " + size() + " operations";
  }
}
