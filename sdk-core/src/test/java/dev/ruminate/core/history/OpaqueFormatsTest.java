package dev.ruminate.core.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OpaqueFormatsTest {

    @Test
    void standardBase64AcceptsPaddedValuesAndNamesWhatIsWrongWithoutQuotingIt() {
        assertThat(OpaqueFormats.standardBase64("EqQBCkYIBxgCKkA+/w==")).isNull();
        assertThat(OpaqueFormats.standardBase64("EqQBCkYI")).isNull();
        assertThat(OpaqueFormats.standardBase64("")).isEqualTo("empty");
        assertThat(OpaqueFormats.standardBase64("EqQBCkYIBxgCKkA+/w=")).contains("multiple of 4");
        assertThat(OpaqueFormats.standardBase64("EqQBCkYIBxgCKk")).contains("length 14");
        assertThat(OpaqueFormats.standardBase64("EqQB!kYI")).contains("position 4").doesNotContain("!");
        assertThat(OpaqueFormats.standardBase64("EqQB-kYI")).contains("URL-safe");
        assertThat(OpaqueFormats.standardBase64("EqQ=CkYI")).contains("position 3");
        assertThat(OpaqueFormats.standardBase64("EqQBC===")).contains("position 5");
    }

    @Test
    void eitherAlphabetIsAcceptedButNotBothInOneValue() {
        assertThat(OpaqueFormats.standardOrUrlSafeBase64("gAAAAABp-_x=")).isNull();
        assertThat(OpaqueFormats.standardOrUrlSafeBase64("Eq+/CkYI")).isNull();
        assertThat(OpaqueFormats.standardOrUrlSafeBase64("Eq+_CkYI")).contains("mixes");
        assertThat(OpaqueFormats.standardOrUrlSafeBase64("gAAAAABp-_x")).contains("multiple of 4");
    }

    @Test
    void nonEmptyRejectsOnlyTheEmptyString() {
        assertThat(OpaqueFormats.nonEmpty("x")).isNull();
        assertThat(OpaqueFormats.nonEmpty("")).isEqualTo("empty");
    }
}
