package org.netpubsub.content.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Example;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.fuzz.Fuzz;

/**
 * Fuzz target: the schema reader (YAML → {@link Schema}). Any bytes either load or are refused with
 * {@link InvalidInputException} naming the field; a loaded schema writes to YAML that loads back
 * equal. Seeds: random schemas of {@link SchemaArbitraries}, written, and a schema with every
 * section (index, layout).
 */
public class SchemaFuzzTest {
  public static void fuzzerTestOneInput(byte[] data) {
    accept(data);
  }

  static boolean accept(byte[] data) {
    Schema schema;
    try {
      schema = SchemaLoader.parse(new String(data, StandardCharsets.UTF_8), "fuzz.yaml");
    } catch (InvalidInputException e) {
      return false;
    }
    assertThat(SchemaLoader.parse(SchemaWriter.toYaml(schema), "fuzz.yaml")).isEqualTo(schema);
    return true;
  }

  static List<byte[]> seeds() {
    List<String> texts = new ArrayList<>();
    texts.add(
        """
        name: quotes
        attributes:
          - {name: symbol, type: string, max_length: 8}
          - {name: price, type: int, min: 0, max: 1000000}
          - {name: volume, type: int, min: -5, max: 0x7fffffffffffffff}
        index: [symbol, price]
        """);
    Random random = new Random(27);
    var schemas = SchemaArbitraries.schemas(6, 32).generator(100);
    for (int i = 0; i < 12; i++) {
      texts.add(SchemaWriter.toYaml(schemas.next(random).value()));
    }
    return texts.stream().map(t -> t.getBytes(StandardCharsets.UTF_8)).toList();
  }

  @Example
  void everyTextLoadsOrIsRefusedTyped() {
    Fuzz.run("schema", SchemaFuzzTest::accept, seeds(), 200);
  }
}
