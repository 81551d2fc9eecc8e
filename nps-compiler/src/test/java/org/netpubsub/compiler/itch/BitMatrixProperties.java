package org.netpubsub.compiler.itch;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;

class BitMatrixProperties {
  @Property(tries = 300)
  void transposeIsTheNaiveTranspose(@ForAll @Size(64) long[] rows) {
    long[] t = rows.clone();
    BitMatrix.transpose(t);
    for (int i = 0; i < 64; i++) {
      for (int j = 0; j < 64; j++) {
        assertThat((t[j] >>> i) & 1).as("row %d bit %d", j, i).isEqualTo((rows[i] >>> j) & 1);
      }
    }
    BitMatrix.transpose(t);
    assertThat(t).isEqualTo(rows);
  }
}
