package io.kaas.security.tls;

import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.security.auth.x500.X500Principal;

/**
 * The certificates of a key store's private key entries (subject DN and subject alternative names, by alias), and
 * Kafka's rule for a dynamic key store change: unless {@code ssl.allow.dn.changes} / {@code ssl.allow.san.changes},
 * the new store's entries keep the DNs and at least the SANs of the old one's ({@code SslFactory.CertificateEntries}).
 */
final class KeyStoreIdentity {

    private record Entry(String alias, X500Principal subject, Set<List<?>> sans) {
    }

    private final List<Entry> entries;

    private KeyStoreIdentity(List<Entry> entries) {
        this.entries = entries;
    }

    /** The key entries of {@code store}, in alias order. */
    static KeyStoreIdentity of(KeyStore store) {
        List<Entry> out = new ArrayList<>();
        try {
            for (String alias : Collections.list(store.aliases()).stream().sorted().toList()) {
                if (!store.isKeyEntry(alias)) {
                    continue;
                }
                Certificate c = store.getCertificate(alias);
                if (c instanceof X509Certificate x) {
                    Collection<List<?>> names = x.getSubjectAlternativeNames();
                    out.add(new Entry(alias, x.getSubjectX500Principal(), names == null ? Set.of() : new HashSet<>(names)));
                }
            }
        } catch (KeyStoreException | CertificateParsingException e) {
            throw new TlsConfigException(SslKeys.KEYSTORE_LOCATION, "cannot read the key store's certificates: "
                + ServerSslContextFactory.rootMessage(e), e);
        }
        return new KeyStoreIdentity(out);
    }

    boolean hasKey() {
        return !entries.isEmpty();
    }

    /** Kafka's words for why {@code next} cannot replace this store, or null if it can. */
    String incompatibility(KeyStoreIdentity next, boolean allowDnChanges, boolean allowSanChanges) {
        if ((!allowDnChanges || !allowSanChanges) && next.entries.size() != entries.size()) {
            return String.format("Keystore entries do not match, existing store contains %d entries, new store "
                + "contains %d entries", entries.size(), next.entries.size());
        }
        for (int i = 0; i < entries.size() && i < next.entries.size(); i++) {
            Entry old = entries.get(i);
            Entry now = next.entries.get(i);
            if (!allowDnChanges && !old.subject().equals(now.subject())
                && !old.subject().getName().equalsIgnoreCase(now.subject().getName())) {
                return String.format("Keystore DistinguishedName does not match:  existing={alias=%s, DN=%s}, "
                    + "new={alias=%s, DN=%s}", old.alias(), old.subject(), now.alias(), now.subject());
            }
            if (!allowSanChanges && !now.sans().containsAll(old.sans())) {
                return String.format("Keystore SubjectAltNames do not match:  existing={alias=%s, SAN=%s}, "
                    + "new={alias=%s, SAN=%s}", old.alias(), old.sans(), now.alias(), now.sans());
            }
        }
        return null;
    }
}
