package io.sluice.broker.security;

import javax.security.sasl.SaslException;

/**
 * What Sluice's SASL clients and servers share: PLAIN and SCRAM negotiate no integrity or confidentiality layer (TLS
 * provides it), so wrap and unwrap refuse, no property is negotiated and nothing needs disposing.
 *
 * <p>Stateless; the subclasses state their own threading contract.
 */
abstract class NoSecurityLayer {
    public byte[] unwrap(byte[] incoming, int offset, int len) throws SaslException {
        throw new SaslException(getClass().getSimpleName() + ": no SASL security layer is negotiated");
    }

    public byte[] wrap(byte[] outgoing, int offset, int len) throws SaslException {
        throw new SaslException(getClass().getSimpleName() + ": no SASL security layer is negotiated");
    }

    public Object getNegotiatedProperty(String propName) {
        return null;
    }

    public void dispose() throws SaslException {}
}
