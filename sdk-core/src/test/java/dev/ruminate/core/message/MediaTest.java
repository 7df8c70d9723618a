package dev.ruminate.core.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** What a {@link Media} shows of itself and says when refused: never its bytes or a URL's path and query. */
class MediaTest {

    @Test
    void toStringShowsKindTypeSizeAndHostButNeitherBytesNorPathNorQuery() {
        Media bytes = Media.image(new byte[] {'S', 'E', 'C', 'R', 'E', 'T'}, "IMAGE/PNG");
        Media url = Media.documentUrl("https://files.example.com/private/report.pdf?sig=token-123", "application/pdf",
                "report.pdf");

        assertThat(bytes.toString()).isEqualTo("Media[image image/png, 6 bytes]");
        assertThat(url.toString()).contains("https://files.example.com/").contains("report.pdf")
                .doesNotContain("private").doesNotContain("token-123");
    }

    @Test
    void aUrlThatCannotBeParsedIsRefusedWithoutQuotingIt() {
        assertThatThrownBy(() -> Media.imageUrl("https://example.com/a b?sig=token-123", "image/png"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not a URL: the media URL could not be parsed")
                .hasNoCause()
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("token-123").doesNotContain("example.com"));
    }

    @Test
    void theBytesAreCopiedInAndOut() {
        byte[] data = {1, 2, 3};
        Media media = Media.image(data, "image/png");
        data[0] = 9;
        byte[] out = media.data();
        assertThat(out).containsExactly(1, 2, 3);
        out[1] = 9;
        assertThat(media.data()).containsExactly(1, 2, 3);
    }
}
