package dev.ruminate.gateway.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ItemJsonTest {

    @Test
    void theIdIsTheTopLevelOnesWhereverItIs() {
        assertThat(ItemJson.idOf("{\"type\":\"message\",\"content\":[{\"id\":\"inner\"}],\"id\":\"msg_1\"}"))
                .isEqualTo("msg_1");
        assertThat(ItemJson.idOf("{\"meta\":{\"id\":\"inner\"}}")).isNull();
        assertThat(ItemJson.idOf("{\"id\":7}")).isNull();
        assertThat(ItemJson.idOf("[{\"id\":\"x\"}]")).isNull();
        assertThat(ItemJson.idOf("{\"id\":")).isNull();
        assertThat(ItemJson.idOf("")).isNull();
    }

    @Test
    void theFieldsAnItemIsIndexedByAreItsTopLevelOnes() {
        ItemJson.Fields f = ItemJson.fields("{\"summary\":[{\"type\":\"summary_text\",\"text\":\"t\",\"id\":\"in\"}],"
                + "\"meta\":{\"call_id\":\"inner\",\"encrypted_content\":\"x\"},\"type\":\"reasoning\",\"id\":\"rs_1\"}");
        assertThat(f).isEqualTo(new ItemJson.Fields("reasoning", "rs_1", null, false, true));
        assertThat(ItemJson.fields("{\"type\":\"reasoning\",\"id\":{\"x\":1},\"summary\":[],\"content\":null,"
                + "\"encrypted_content\":\"rgw1.k1.A\"}"))
                .isEqualTo(new ItemJson.Fields("reasoning", null, null, true, false));
        assertThat(ItemJson.fields("{\"type\":\"function_call\",\"call_id\":\"call_1\",\"encrypted_content\":null}"))
                .isEqualTo(new ItemJson.Fields("function_call", null, "call_1", false, false));
        assertThat(ItemJson.fields("{\"type\":")).isEqualTo(new ItemJson.Fields(null, null, null, false, false));
        assertThat(ItemJson.fields("[1]")).isEqualTo(new ItemJson.Fields(null, null, null, false, false));
    }

    @Test
    void aResponseComesBackEqual() {
        StoredResponse r = new StoredResponse("resp_1", "m", Instant.parse("2026-01-01T00:00:00.000000001Z"),
                "", List.of("{\"a\":\"\\u0000 é\\n\"}"), List.of("{\"id\":\"x\"}", " {\"id\" : \"y\"} "));

        assertThat(ItemJson.read(ItemJson.write(r))).isEqualTo(r);
    }

    @Test
    void somethingElseIsRejected() {
        assertThatThrownBy(() -> ItemJson.read("{\"id\":\"resp_1\"}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ItemJson.read("{\"id\":\"r\",\"model\":\"m\",\"created_at\":\"yesterday\"}"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ItemJson.read("{\"id\":\"r\",\"model\":\"m\",\"created_at\":\"2026-01-01T00:00:00Z\","
                + "\"output\":[1]}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ItemJson.read("nope")).isInstanceOf(IllegalArgumentException.class);
    }
}
