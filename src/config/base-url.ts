// The API host as given by a user -> the form the client needs: no trailing
// slash, no `/api/v1` (the client appends it). Plain http:// is refused
// except on loopback: the token would cross the network in clear.
import { ConfigError } from '../errors.js';
import { isLoopbackHost } from '../domain/loopback.js';

/** Hide credentials if a URL holds any, for messages. */
function redact(raw: string): string {
  return raw.replace(/\/\/[^/@]*@/, '//***@');
}

export function normalizeBaseUrl(raw: string, source: string): string {
  const invalid = (what: string) =>
    new ConfigError('base_url_invalid', `${source}: ${what}`, {
      hint: 'Give the host URL, e.g. https://acme.cubecloud.dev',
    });
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid(`${JSON.stringify(redact(raw))} is not a valid URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalid(`the base URL must start with https:// (got ${url.protocol}//)`);
  }
  if (url.username || url.password) {
    throw new ConfigError('base_url_credentials', `${source}: the base URL must not contain credentials`, {
      hint: 'Remove user:password@ from the URL; give the token in WSC_TOKEN or `token: ${env.NAME}`.',
    });
  }
  if (url.search || url.hash) {
    throw invalid('the base URL must not have a query or fragment');
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new ConfigError(
      'base_url_insecure',
      `${source}: refusing http:// for ${url.hostname}: the token would travel unencrypted`,
      {
        hint: 'Use https://. Plain http:// is allowed only for a loopback host (127.0.0.1, localhost, [::1]).',
      },
    );
  }
  let path = url.pathname.replace(/\/+$/, '');
  if (/\/api\/v1$/i.test(path)) path = path.slice(0, -'/api/v1'.length);
  return `${url.protocol}//${url.host}${path}`;
}
