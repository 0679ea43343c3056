/** A public address that forwards to the local listener. */
export interface Tunnel {
  /** The public base URL (https://…), without the /push path. */
  url: string;
  close(): Promise<void>;
}

/** What opens tunnels. The real one is ngrok's SDK; tests use a loopback forwarder (the service is unreachable here).
 * */
export interface TunnelProvider {
  open(options: {
    /** Local address to forward to, e.g. http://127.0.0.1:8787. */
    forwardTo: string;
    authtoken: string;
    /** A reserved domain on the owner's ngrok account, when they have one. */
    domain?: string;
    /** The connection dropped ('closed') or came back ('connected'). */
    onStatus(status: 'closed' | 'connected'): void;
  }): Promise<Tunnel>;
}

/**
 * The ngrok JavaScript SDK (`@ngrok/ngrok`), loaded only when the owner turns the tunnel on. SECURITY: the
 * authtoken comes from the secret store and is never logged; errors are reduced to their message.
 */
export const ngrokTunnelProvider: TunnelProvider = {
  async open({ forwardTo, authtoken, domain, onStatus }) {
    const ngrok = await import('@ngrok/ngrok');
    const listener = await ngrok.forward({
      addr: forwardTo,
      authtoken,
      ...(domain ? { domain } : {}),
      onStatusChange: (status: string) => onStatus(status === 'closed' ? 'closed' : 'connected'),
    });
    const url = listener.url();
    if (!url) {
      await listener.close();
      throw new Error('ngrok opened no public address');
    }
    return { url, close: () => listener.close() };
  },
};
