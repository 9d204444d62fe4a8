// Which hosts are this machine's own: where a token may travel over plain
// http:// (config) and where the emulator may listen.

/**
 * localhost, 127.0.0.0/8 or ::1, in any case; an IPv6 address may be written
 * as a URL writes it (`[::1]`).
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Whether a request's Host header names this machine (any port), or there is none. A page of another origin
 * whose name was pointed at 127.0.0.1 (DNS rebinding) sends its own name: a loopback server refuses it.
 */
export function isLoopbackHostHeader(host: string | undefined): boolean {
  if (host === undefined) return true;
  try {
    return isLoopbackHost(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}
