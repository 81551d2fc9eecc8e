package org.netpubsub.content.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/** The ssbg word list (resource {@code workload/ssbg-words.txt}), most frequent word first. */
final class Words {
  static final String RESOURCE = "/workload/ssbg-words.txt";

  private static final List<String> WORDS = load();

  private Words() {}

  static List<String> all() {
    return WORDS;
  }

  /** The length in UTF-8 bytes of the longest word (ASCII words: its character count). */
  static int maxLength() {
    return WORDS.stream().mapToInt(String::length).max().orElseThrow();
  }

  private static List<String> load() {
    try (InputStream in = Words.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCE);
      }
      BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      List<String> words = new ArrayList<>();
      HashSet<String> seen = new HashSet<>();
      String line;
      while ((line = reader.readLine()) != null) {
        String w = line.strip();
        if (w.isEmpty() || w.startsWith("#")) {
          continue;
        }
        if (!w.matches("[a-z]+") || !seen.add(w)) {
          throw new IllegalStateException(RESOURCE + ": bad or repeated word '" + w + "'");
        }
        words.add(w);
      }
      return List.copyOf(words);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
