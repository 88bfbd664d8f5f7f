package io.apiary.ingest.devstack;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A certificate authority made for one run and a server certificate it signs, made with the JDK's
 * {@code keytool} (child processes) in a folder of the run's work folder: nothing is committed and
 * nothing outlives the work folder. Passwords are random per run (24 characters of {@link
 * SecureRandom}, base64url) and reach {@code keytool} through its environment ({@code
 * -storepass:env}), never its command line; {@link #toString()} names the files, not the passwords.
 *
 * <p>Files, all PKCS12, in {@link #dir()} (created {@code rwx------} by {@link #create}, so that
 * no other local user can read the key stores keytool writes into it): {@code ca.p12} (the CA's
 * key; only keytool reads it), {@code ca.crt} (PEM), {@code server.p12} (the server's key and its chain, alias {@code server},
 * SAN {@code dns:localhost,ip:127.0.0.1}, EC P-256, valid 7 days) and {@code truststore.p12} (the CA's
 * certificate, alias {@code ca}). The server key store and the trust store each have a password of
 * their own; the key's password is the key store's (PKCS12 has one).
 *
 * <p>Immutable and thread-safe once made.
 */
public final class StackCertificates {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Duration KEYTOOL_TIMEOUT = Duration.ofSeconds(60);

    private final Path dir;
    private final String keyStorePassword;
    private final String trustStorePassword;

    private StackCertificates(Path dir, String keyStorePassword, String trustStorePassword) {
        this.dir = dir;
        this.keyStorePassword = keyStorePassword;
        this.trustStorePassword = trustStorePassword;
    }

    /**
     * Makes a new CA, a server certificate it signs and a trust store holding the CA, in {@code
     * dir} (created owner-only, {@code rwx------}, if missing; existing files of these names are
     * an error of keytool).
     *
     * @param java    the {@code java} binary of a JDK: its sibling {@code keytool} is run; not null
     * @param dir     the folder for the files; not null
     * @param caName  the CA's common name, e.g. {@code Apiary devstack CA}; not null
     * @return the certificates; never null
     * @throws LocalStackException if keytool is missing, fails or takes more than 60 s (its output
     *                             is in {@code dir/keytool.log}, which never holds a password)
     */
    public static StackCertificates create(Path java, Path dir, String caName) {
        Objects.requireNonNull(caName, "caName");
        Path keytool = Objects.requireNonNull(java, "java").resolveSibling("keytool");
        if (!Files.isExecutable(keytool)) {
            throw new LocalStackException("Cannot make the run's certificates: no keytool beside " + java);
        }
        StackFiles.mkdirsOwnerOnly(dir); // before keytool writes the keys into it
        String caPassword = randomSecret();
        StackCertificates certs = new StackCertificates(dir, randomSecret(), randomSecret());
        Path ca = dir.resolve("ca.p12");
        Path server = dir.resolve("server.p12");
        Path trust = dir.resolve("truststore.p12");
        Path log = dir.resolve("keytool.log");
        // -storepass:env / -keypass:env read these variables: the passwords never reach a command line
        List<String> caStore = List.of("-keystore", ca.toString(), "-storetype", "PKCS12", "-storepass:env", "CA_PW");
        List<String> serverStore =
                List.of("-keystore", server.toString(), "-storetype", "PKCS12", "-storepass:env", "SERVER_PW");
        certs.keytool(
                keytool,
                log,
                caPassword,
                cat(
                        List.of("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1"),
                        List.of("-dname", "CN=" + caName, "-ext", "bc:c", "-validity", "7"),
                        caStore));
        certs.keytool(
                keytool,
                log,
                caPassword,
                cat(
                        List.of(
                                "-exportcert",
                                "-rfc",
                                "-alias",
                                "ca",
                                "-file",
                                dir.resolve("ca.crt").toString()),
                        caStore));
        certs.keytool(
                keytool,
                log,
                caPassword,
                cat(
                        List.of("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1"),
                        List.of("-dname", "CN=localhost", "-validity", "7"),
                        serverStore));
        certs.keytool(
                keytool,
                log,
                caPassword,
                cat(
                        List.of(
                                "-certreq",
                                "-alias",
                                "server",
                                "-file",
                                dir.resolve("server.csr").toString()),
                        serverStore));
        certs.keytool(
                keytool,
                log,
                caPassword,
                cat(
                        List.of("-gencert", "-alias", "ca", "-rfc", "-validity", "7"),
                        List.of("-infile", dir.resolve("server.csr").toString()),
                        List.of("-outfile", dir.resolve("server.crt").toString()),
                        List.of("-ext", "san=dns:localhost,ip:127.0.0.1", "-ext", "eku=serverAuth,clientAuth"),
                        List.of("-ext", "ku:c=digitalSignature,keyAgreement"),
                        caStore));
        certs.importCertificate(keytool, log, caPassword, "ca", dir.resolve("ca.crt"), serverStore);
        certs.importCertificate(keytool, log, caPassword, "server", dir.resolve("server.crt"), serverStore);
        certs.importCertificate(
                keytool,
                log,
                caPassword,
                "ca",
                dir.resolve("ca.crt"),
                List.of("-keystore", trust.toString(), "-storetype", "PKCS12", "-storepass:env", "TRUST_PW"));
        return certs;
    }

    /** @return 24 random characters (144 bits, base64url without padding); never null */
    public static String randomSecret() {
        byte[] bytes = new byte[18];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** @return the folder holding the files; never null */
    public Path dir() {
        return dir;
    }

    /** @return the server's key store (PKCS12, alias {@code server}, chain to the CA); never null */
    public Path serverKeyStore() {
        return dir.resolve("server.p12");
    }

    /** @return the password of {@link #serverKeyStore()} and of its key; never null */
    public String serverKeyStorePassword() {
        return keyStorePassword;
    }

    /** @return the trust store (PKCS12) holding only the CA's certificate; never null */
    public Path trustStore() {
        return dir.resolve("truststore.p12");
    }

    /** @return the password of {@link #trustStore()}; never null */
    public String trustStorePassword() {
        return trustStorePassword;
    }

    /** @return the CA's certificate, PEM; never null */
    public Path caCertificate() {
        return dir.resolve("ca.crt");
    }

    /**
     * @return a TLS context trusting only this CA, for clients of the servers (no client key)
     * @throws LocalStackException if the trust store cannot be read
     */
    public SSLContext clientSslContext() {
        try (InputStream in = Files.newInputStream(trustStore())) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, trustStorePassword.toCharArray());
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new LocalStackException("Cannot read the trust store " + trustStore() + ": " + e, e);
        }
    }

    /** @return the folder and the files, never a password */
    @Override
    public String toString() {
        return "StackCertificates[" + dir + ": server.p12, truststore.p12, ca.crt]";
    }

    /** Runs {@code keytool -importcert} of {@code file} under {@code alias} into the store {@code storeArgs} names. */
    private void importCertificate(
            Path keytool, Path log, String caPassword, String alias, Path file, List<String> storeArgs) {
        keytool(
                keytool,
                log,
                caPassword,
                cat(
                        List.of("-importcert", "-noprompt", "-alias", alias),
                        List.of("-file", file.toString()),
                        storeArgs));
    }

    private void keytool(Path keytool, Path log, String caPassword, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(keytool.toString());
        command.add("-J-XX:TieredStopAtLevel=1");
        command.add("-J-XX:+UseSerialGC");
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        pb.environment().remove("_JAVA_OPTIONS");
        pb.environment().remove("JDK_JAVA_OPTIONS");
        pb.environment().put("CA_PW", caPassword);
        pb.environment().put("SERVER_PW", keyStorePassword);
        pb.environment().put("TRUST_PW", trustStorePassword);
        String what = "keytool " + args.get(0) + " in " + dir;
        try {
            Process p = pb.start();
            p.getOutputStream().close();
            if (!p.waitFor(KEYTOOL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new LocalStackException(what + " did not finish within 60 s; see " + log);
            }
            if (p.exitValue() != 0) {
                throw new LocalStackException(
                        what + " failed with exit code " + p.exitValue() + ": " + StackFiles.tail(log, 0, 10));
            }
        } catch (IOException e) {
            throw new LocalStackException("Cannot run " + what + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalStackException(what + " was interrupted", e);
        }
    }

    @SafeVarargs
    private static List<String> cat(List<String>... parts) {
        List<String> all = new ArrayList<>();
        for (List<String> part : parts) {
            all.addAll(part);
        }
        return all;
    }
}
