package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Anthropic's limit of four {@code cache_control} blocks and its image media types, as the emulator checks them. */
class AnthropicCacheAndImageRulesTest {

    private final AcceptanceRules rules = AcceptanceRules.anthropic();

    private Violation check(JsonNode body) {
        return rules.check(Sendback.post("/v1/messages", body));
    }

    private static void cache(ObjectNode block) {
        block.putObject("cache_control").put("type", "ephemeral");
    }

    /** A body with a cached tool, a cached system block, and {@code cachedTurns} user turns whose text is cached. */
    private static ObjectNode body(int cachedTurns) {
        ObjectNode body = Sendback.JSON.createObjectNode();
        body.put("model", "claude-sonnet-4-5");
        body.put("max_tokens", 100);
        ObjectNode tool = body.putArray("tools").addObject();
        tool.put("name", "t");
        tool.putObject("input_schema").put("type", "object");
        cache(tool);
        ObjectNode system = body.putArray("system").addObject();
        system.put("type", "text");
        system.put("text", "Be brief.");
        cache(system);
        ArrayNode messages = body.putArray("messages");
        for (int i = 0; i < cachedTurns; i++) {
            ObjectNode user = messages.addObject();
            user.put("role", i % 2 == 0 ? "user" : "assistant");
            ObjectNode text = user.putArray("content").addObject();
            text.put("type", "text");
            text.put("text", "turn " + i);
            cache(text);
        }
        return body;
    }

    @Test
    void fourBreakpointsPass() {
        assertThat(check(body(2))).isNull();
    }

    @Test
    void aFifthBreakpointIsRefusedWithTheCount() {
        Violation violation = check(body(3));

        assertThat(violation).isNotNull();
        assertThat(violation.rule()).isEqualTo(AnthropicCacheControlRule.NAME);
        assertThat(violation.message()).isEqualTo("A maximum of 4 blocks with cache_control may be provided. Found 5.");
        assertThat(Sendback.errorBody(rules, violation).get("error").get("type").asString()).isEqualTo("invalid_request_error");
    }

    @Test
    void breakpointsInsideAToolResultCount() {
        ObjectNode body = body(2);
        ObjectNode result = ((ArrayNode) body.get("messages").get(0).get("content")).addObject();
        result.put("type", "tool_result");
        result.put("tool_use_id", "toolu_1");
        ObjectNode inner = result.putArray("content").addObject();
        inner.put("type", "text");
        inner.put("text", "42");
        cache(inner);

        assertThat(check(body).message()).endsWith("Found 5.");
    }

    private static ObjectNode withImage(String mediaType, boolean inToolResult) {
        ObjectNode body = body(0);
        ArrayNode content = body.withArray("messages").addObject().put("role", "user").putArray("content");
        ArrayNode target = content;
        if (inToolResult) {
            ObjectNode result = content.addObject();
            result.put("type", "tool_result");
            result.put("tool_use_id", "toolu_1");
            target = result.putArray("content");
        }
        ObjectNode image = target.addObject();
        image.put("type", "image");
        ObjectNode source = image.putObject("source");
        source.put("type", "base64");
        source.put("media_type", mediaType);
        source.put("data", "AAAA");
        return body;
    }

    @Test
    void theFourImageTypesPass() {
        for (String type : new String[] {"image/jpeg", "image/png", "image/gif", "image/webp"}) {
            assertThat(check(withImage(type, false))).as(type).isNull();
        }
    }

    @Test
    void anotherImageTypeIsRefusedNamingItsPlace() {
        Violation violation = check(withImage("image/heic", false));

        assertThat(violation).isNotNull();
        assertThat(violation.rule()).isEqualTo(AnthropicImageRule.NAME);
        assertThat(violation.message()).startsWith("messages.0.content.0.image.source.base64.media_type: Input should be");
    }

    @Test
    void anImageInAToolResultIsCheckedToo() {
        assertThat(check(withImage("image/bmp", true)).message())
                .startsWith("messages.0.content.0.content.0.image.source.base64.media_type");
        assertThat(check(withImage("image/png", true))).isNull();
    }
}
