// Emulator test helpers: real HTTP requests (undici) against an emulator on
// 127.0.0.1 port 0, and a check that every answer it gave matches the wire
// zod schemas of src/domain/wire.ts.
import { request } from 'undici';
import { afterEach } from 'vitest';
import * as z from 'zod';
import {
  Dashboard,
  ErrorBody,
  Folder,
  FoldersList,
  ReportDescribed,
  ReportsList,
  UserAttribute,
  UserAttributesList,
  Workbook,
  WorkbooksList,
} from '../../src/domain/wire.js';
import { createEmulator, type Emulator, type EmulatorOptions, type RequestLogEntry } from '../../src/emulator/index.js';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

export interface Client {
  emu: Emulator;
  call(
    method: string,
    path: string,
    body?: unknown,
    opts?: { token?: string | null; auth?: string; raw?: string },
  ): Promise<Answer>;
}

const open: Emulator[] = [];
afterEach(async () => {
  for (const emu of open.splice(0)) {
    checkLog(emu.log);
    await emu.close();
  }
});

/** Starts an emulator (closed, and its log checked against the schemas, after the test). */
export async function start(opts: EmulatorOptions = {}): Promise<Client> {
  const emu = await createEmulator({ port: 0, randomSeed: 7, ...opts });
  open.push(emu);
  return { emu, call: (m, p, b, o) => call(emu, m, p, b, o) };
}

export async function call(
  emu: Emulator,
  method: string,
  path: string,
  body?: unknown,
  opts: { token?: string | null; auth?: string; raw?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (opts.auth !== undefined) headers['authorization'] = opts.auth;
  else if (opts.token !== null) headers['authorization'] = `Bearer ${opts.token ?? emu.adminToken}`;
  let payload: string | undefined;
  if (opts.raw !== undefined) payload = opts.raw;
  else if (body !== undefined) payload = JSON.stringify(body);
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const res = await request(`${emu.url}${path}`, { method: method as 'GET', headers, body: payload });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
}

const DEP = String.raw`^/api/v1/deployments/\d+`;
const RULES: [string, RegExp, z.ZodType][] = [
  ['GET', new RegExp(`${DEP}/reports$`), ReportsList],
  ['POST', new RegExp(`${DEP}/reports$`), ReportDescribed],
  ['PUT', new RegExp(`${DEP}/reports/by-public-id/[^/]+$`), ReportDescribed],
  ['GET', new RegExp(`${DEP}/reports/\\d+$`), ReportDescribed],
  ['PUT', new RegExp(`${DEP}/reports/\\d+$`), ReportDescribed],
  ['GET', new RegExp(`${DEP}/workbooks$`), WorkbooksList],
  ['POST', new RegExp(`${DEP}/workbooks$`), Workbook],
  ['PUT', new RegExp(`${DEP}/workbooks/by-slug/[^/]+$`), Workbook],
  ['GET', new RegExp(`${DEP}/workbooks/\\d+$`), Workbook],
  ['POST', new RegExp(`${DEP}/workbooks/\\d+/publish$`), Dashboard],
  ['GET', /^\/api\/v1\/user-attributes$/, UserAttributesList],
  ['POST', /^\/api\/v1\/user-attributes$/, UserAttribute],
  ['PUT', /^\/api\/v1\/user-attributes\/\d+$/, UserAttribute],
  ['GET', new RegExp(`${DEP}/folders$`), FoldersList],
  ['POST', new RegExp(`${DEP}/folders$`), Folder],
  ['GET', new RegExp(`${DEP}/folders/\\d+/ancestors$`), z.array(Folder)],
];
const StrictError = ErrorBody.extend({ statusCode: z.int(), message: z.string(), error: z.string() });

/** The wire schema a 200 answer of this route must match; DELETE answers {}. */
function schemaFor(method: string, path: string): z.ZodType | undefined {
  if (method === 'DELETE') return z.strictObject({});
  return RULES.find(([m, re]) => m === method && re.test(path))?.[2];
}

/** Fails on any logged answer that does not match its wire schema. */
export function checkLog(log: readonly RequestLogEntry[]): void {
  for (const e of log) {
    if (e.status === 0 || e.responseBody === undefined) continue;
    checkAnswer(e.method, e.path, e.status, e.responseBody);
  }
}

function checkAnswer(method: string, path: string, status: number, body: unknown): void {
  const where = `${method} ${path} -> ${status}`;
  if (status !== 200) {
    const r = StrictError.safeParse(body);
    if (!r.success || r.data.statusCode !== status) throw new Error(`${where}: bad error body ${JSON.stringify(body)}`);
    return;
  }
  const schema = schemaFor(method, path);
  if (!schema) throw new Error(`${where}: no schema for this route`);
  const r = schema.safeParse(body);
  if (!r.success) throw new Error(`${where}: the answer does not match the wire schema: ${r.error.message}`);
  const b = body as Record<string, unknown>;
  const items = (b['items'] as Record<string, unknown>[] | undefined) ?? [b];
  if (b['items']) {
    if (JSON.stringify(b['data']) !== JSON.stringify(b['items'])) throw new Error(`${where}: data differs from items`);
    if (typeof b['count'] !== 'number' || !b['pageInfo']) throw new Error(`${where}: count and pageInfo required`);
  }
  // Required fields the schemas leave optional, and the kind of record.
  for (const it of items) {
    if (schema === Workbook || schema === WorkbooksList) {
      if (it['type'] !== 'WORKBOOK') throw new Error(`${where}: workbook type ${String(it['type'])}`);
    }
    if (schema === ReportDescribed || schema === ReportsList) {
      if (it['type'] !== 'REPORT') throw new Error(`${where}: report type ${String(it['type'])}`);
      for (const k of ['canEdit', 'canManage'])
        if (typeof it[k] !== 'boolean') throw new Error(`${where}: ${k} missing`);
    }
  }
}

export const d1 = '/api/v1/deployments/1';
export const d2 = '/api/v1/deployments/2';
export const draft = (widgets: unknown[] = []) => ({ kind: 'CLASSIC', title: 'Dash', widgets });
export const chart = (id: string, reportId: number, y = 0) => ({
  id,
  type: 'CHART',
  position: { x: 0, y, w: 6, h: 4 },
  config: { reportId },
});
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
