// The connection settings every networked command takes from its flags and
// the process: concurrency, retries, WSC_REQUEST_TIMEOUT and the --verbose
// trace. Computed before anything is read, so a bad WSC_REQUEST_TIMEOUT is a
// config error (exit 3) with nothing sent.
import type { ConnectOptions } from '../api/connect.js';
import type { CommonOptions } from './options.js';
import { envValue } from '../env.js';
import { ConfigError, type ConfigCode } from '../errors.js';
import type { CommandContext } from './context.js';
import { visible } from '../visible.js';

/** A variable giving seconds above 0, in milliseconds; a bad value is a config error (`code`) naming the default. */
export function secondsVariable(
  env: Record<string, string | undefined>,
  name: string,
  code: ConfigCode,
  defaults: { seconds: number; example: number },
): number | undefined {
  const raw = envValue(env, name);
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new ConfigError(code, `${name} must be a number of seconds above 0, got "${raw}".`, {
      hint: `Unset it for the default (${defaults.seconds} s), or set e.g. ${name}=${defaults.example}.`,
    });
  }
  return Math.round(seconds * 1000);
}

export const requestTimeoutMs = (env: Record<string, string | undefined>): number | undefined =>
  secondsVariable(env, 'WSC_REQUEST_TIMEOUT', 'request_timeout_invalid', { seconds: 30, example: 60 });

/** `--page-size`, else WSC_PAGE_SIZE, else the client's default. */
export function pageSize(flag: number | undefined, env: Record<string, string | undefined>): number | undefined {
  if (flag !== undefined) return flag;
  const raw = envValue(env, 'WSC_PAGE_SIZE');
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < 1 || n > 10_000) {
    throw new ConfigError('page_size_invalid', `WSC_PAGE_SIZE must be a whole number from 1 to 10000, got "${raw}".`, {
      hint: 'Unset it for the default (500), or set e.g. WSC_PAGE_SIZE=100.',
    });
  }
  return n;
}

/** `--max-list-items`, else WSC_MAX_LIST_ITEMS, else the client's default. */
export function maxListItems(flag: number | undefined, env: Record<string, string | undefined>): number | undefined {
  if (flag !== undefined) return flag;
  const raw = envValue(env, 'WSC_MAX_LIST_ITEMS');
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < 1 || !Number.isSafeInteger(n)) {
    const message = `WSC_MAX_LIST_ITEMS must be a whole number above 0, got "${raw}".`;
    throw new ConfigError('max_list_items_invalid', message, {
      hint: 'Unset it for the default (200000), or set e.g. WSC_MAX_LIST_ITEMS=500000.',
    });
  }
  return n;
}

/** A size in bytes: a whole number, or one with `K`, `M` or `G` (powers of 1024; `MiB`, `MB` alike). */
export function parseBytes(text: string): number | undefined {
  const m = /^\s*(\d+)\s*(?:([kmg])(?:i?b)?|b)?\s*$/i.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]) * 1024 ** ' kmg'.indexOf((m[2] ?? ' ').toLowerCase());
  return n >= 1 && Number.isSafeInteger(n) ? n : undefined;
}

/** `--max-list-bytes`, else WSC_MAX_LIST_BYTES, else the client's default. */
export function maxListBytes(flag: number | undefined, env: Record<string, string | undefined>): number | undefined {
  if (flag !== undefined) return flag;
  const raw = envValue(env, 'WSC_MAX_LIST_BYTES');
  if (raw === undefined) return undefined;
  const n = parseBytes(raw);
  if (n === undefined) {
    throw new ConfigError('max_list_bytes_invalid', `WSC_MAX_LIST_BYTES must be a size above 0, got "${raw}".`, {
      hint: 'Unset it for the default (512M), or set e.g. WSC_MAX_LIST_BYTES=2G.',
    });
  }
  return n;
}

export function connectOptions(opts: CommonOptions, ctx: CommandContext): ConnectOptions {
  const timeout = requestTimeoutMs(ctx.env);
  const size = pageSize(opts.pageSize, ctx.env);
  const listItems = maxListItems(opts.maxListItems, ctx.env);
  const listBytes = maxListBytes(opts.maxListBytes, ctx.env);
  return {
    concurrency: opts.concurrency,
    maxRetries: opts.maxRetries,
    ...(size !== undefined ? { pageSize: size } : {}),
    ...(timeout !== undefined ? { requestTimeoutMs: timeout } : {}),
    ...(listItems !== undefined ? { maxListItems: listItems } : {}),
    ...(listBytes !== undefined ? { maxListBytes: listBytes } : {}),
    notice: (line: string) => ctx.err(`${visible(line)}\n`),
    ...(opts.verbose ? { trace: (line: string) => ctx.err(`${visible(line)}\n`) } : {}),
  };
}
