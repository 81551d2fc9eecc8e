package org.netpubsub.content.workload;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WordsTest {
  @Test
  void aboutOneHundredEightyDistinctLowercaseWordsMostFrequentFirst() {
    assertThat(Words.all()).hasSizeBetween(170, 200).doesNotHaveDuplicates();
    assertThat(Words.all()).allSatisfy(w -> assertThat(w).matches("[a-z]+"));
    assertThat(Words.all().get(0)).isEqualTo("the");
    assertThat(Words.maxLength()).isEqualTo(9); // "different"
  }
}
