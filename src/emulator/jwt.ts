// HS256 JSON Web Tokens, as Cube takes them: the Core Data API's tokens are
// JWTs signed with the deployment's API secret (`CUBEJS_API_SECRET`). With a
// secret given (`wsc emulator --cube-api-secret`), the emulator mints such
// tokens, so a local open-source Cube started with the same secret takes them.
import { createHmac, timingSafeEqual } from 'node:crypto';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8').toString('base64url');
const sign = (data: string, secret: string) => createHmac('sha256', secret).update(data).digest('base64url');

/** A token for `payload`, valid `seconds` from now (`iat` and `exp` set). */
export function signJwt(payload: Record<string, unknown>, secret: string, seconds: number, now = Date.now()): string {
  const iat = Math.floor(now / 1000);
  const data = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ ...payload, iat, exp: iat + seconds })}`;
  return `${data}.${sign(data, secret)}`;
}

/**
 * The payload of a token signed with `secret`; `invalid` when it is not one
 * (malformed, another algorithm, another secret), `expired` past its `exp`.
 */
export function verifyJwt(
  token: string,
  secret: string,
  now = Date.now(),
): Record<string, unknown> | 'invalid' | 'expired' {
  const parts = token.split('.');
  if (parts.length !== 3) return 'invalid';
  const [head, body, mac] = parts as [string, string, string];
  const want = Buffer.from(sign(`${head}.${body}`, secret));
  const got = Buffer.from(mac);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return 'invalid';
  let header: unknown;
  let payload: unknown;
  try {
    header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'));
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return 'invalid';
  }
  if ((header as { alg?: unknown } | null)?.alg !== 'HS256') return 'invalid';
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return 'invalid';
  const exp = (payload as { exp?: unknown }).exp;
  if (typeof exp === 'number' && exp * 1000 <= now) return 'expired';
  return payload as Record<string, unknown>;
}
