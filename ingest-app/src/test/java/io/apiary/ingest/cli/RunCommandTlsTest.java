package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

class RunCommandTlsTest {

    @Test
    void a_certificate_no_trust_store_trusts_stops_the_start_and_a_cut_handshake_is_retried() {
        SSLHandshakeException pkix = new SSLHandshakeException("PKIX path building failed");
        CertificateException validator = new CertificateException("PKIX path building failed");
        validator.initCause(new CertPathBuilderException("unable to find valid certification path"));
        pkix.initCause(validator);
        SSLHandshakeException cut = new SSLHandshakeException("Remote host terminated the handshake");
        cut.initCause(new EOFException("SSL peer shut down incorrectly"));

        assertThat(RunCommand.tlsFailure(new RuntimeException("connect failed", pkix)))
                .isSameAs(validator);
        assertThat(RunCommand.tlsFailure(new RuntimeException("connect failed", cut)))
                .isNull();
        assertThat(RunCommand.tlsFailure(new java.net.ConnectException("Connection refused")))
                .isNull();
    }
}
