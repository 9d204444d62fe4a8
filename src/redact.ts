// Secrets wsc must never print or write: every token value it resolves (the
// environment's, WSC_TOKEN, every literal `token:` of wsc.yaml and every
// variable one reads) is registered here, and every line wsc prints (its
// process streams, so spinners, traces and errors alike) and every file it
// writes passes through `redact`. One place, so no renderer can forget it.

/** What a secret is replaced with. */
const REDACTED = '***';
/** Shorter values are not secrets worth hiding (and would blot out ordinary text). */
const MIN_LENGTH = 4;

const secrets = new Set<string>();
/** The values as registered, without their JSON forms: what `holdsSecret` looks for. */
const values = new Set<string>();
let sorted: string[] = [];

/** Registers a secret value, and the forms a JSON or a `visible()` rendering gives it. */
export function addSecret(value: string | undefined): void {
  if (value === undefined || value.length < MIN_LENGTH || values.has(value)) return;
  values.add(value);
  secrets.add(value);
  const json = JSON.stringify(value).slice(1, -1);
  if (json !== value) secrets.add(json);
  // Longest first: a secret that contains another is replaced whole.
  sorted = [...secrets].sort((a, b) => b.length - a.length);
}

/** The secrets registered, as registered (a worker thread registers them too: it has a registry of its own). */
export function secretValues(): string[] {
  return [...values];
}

/** Forgets every secret (tests that run several commands in one process). */
export function clearSecrets(): void {
  secrets.clear();
  values.clear();
  sorted = [];
}

/**
 * Whether `text` equals or contains a registered secret: a variable's value that
 * does would carry a token into a dashboard, where redaction hides it from the
 * reviewer of the plan but not from the server.
 */
export function holdsSecret(text: string): boolean {
  for (const v of values) if (text.includes(v)) return true;
  return false;
}

export function redact(text: string): string {
  if (sorted.length === 0) return text;
  let out = text;
  for (const s of sorted) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}

/**
 * Makes `stream.write` redact what it is given. Text and bytes alike: a
 * library (the spinner) may write either. Called once per stream by main.ts.
 */
export function redactStream(stream: NodeJS.WriteStream): void {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  const redacting = (chunk: unknown, ...rest: unknown[]): boolean => {
    if (sorted.length === 0) return write(chunk, ...rest);
    if (typeof chunk === 'string') return write(redact(chunk), ...rest);
    if (chunk instanceof Uint8Array) return write(redact(Buffer.from(chunk).toString('utf8')), ...rest);
    return write(chunk, ...rest);
  };
  stream.write = redacting;
}
