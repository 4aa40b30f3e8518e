package io.sluice.broker.config;

/**
 * Where the HTTP listener binds, from {@code sluice.http.listener}: {@code host:port}, {@code [ipv6]:port}, or a bare
 * {@code port}, which binds to 127.0.0.1 (metrics stay on the machine unless asked otherwise). Port 0 picks a free one.
 *
 * <p>Immutable.
 */
public record HttpListenerAddress(String host, int port) {
    public static final String DEFAULT_HOST = "127.0.0.1";

    public static HttpListenerAddress parse(String text) {
        String value = text.trim();
        String host = DEFAULT_HOST;
        String port = value;
        int colon = value.lastIndexOf(':');
        if (colon >= 0) {
            host = value.substring(0, colon);
            port = value.substring(colon + 1);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            if (host.isEmpty()) {
                throw new ConfigException(BrokerConfigKeys.HTTP_LISTENER, text, "the host before ':' is empty");
            }
        }
        int number;
        try {
            number = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new ConfigException(
                    BrokerConfigKeys.HTTP_LISTENER,
                    text,
                    "expected host:port or port, and '" + port + "' is not a port number");
        }
        if (number < 0 || number > 65_535) {
            throw new ConfigException(BrokerConfigKeys.HTTP_LISTENER, text, "port " + number + " is outside 0-65535");
        }
        return new HttpListenerAddress(host, number);
    }
}
