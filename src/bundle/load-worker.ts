// The bundle loader's worker thread (load-off-thread.ts starts it): loads the
// bundle it is then asked for and posts the result back as plain data, with each
// resource's file and document so that the main thread can find positions
// again when it needs them. Built as its own entry point (dist/bundle-worker.js).
import { parentPort } from 'node:worker_threads';
import type { DesiredState } from '../core/model.js';
import { addSecret } from '../redact.js';
import { sourceOf, type DocSource } from './desired.js';
import { loadFound, type FoundFiles, type LoadOptions, type LoadResult } from './load.js';

/** What the main thread gives the worker. */
export interface LoaderInput {
  found: FoundFiles;
  opts: LoadOptions;
  /** The registered secrets: a thread has a registry of its own (redact.ts). */
  secrets: string[];
}

/** What the worker posts back: the result, or the message of what it threw. */
export type LoaderOutput =
  | { ok: true; result: LoadResult; sources: Record<keyof DesiredState, (DocSource | null)[]> }
  | { ok: false; message: string };

function load(input: LoaderInput): LoaderOutput {
  for (const s of input.secrets) addSecret(s);
  try {
    const result = loadFound(input.found, input.opts);
    const of = (list: readonly object[]) => list.map((r) => sourceOf(r) ?? null);
    const { workbooks, reports, userAttributes } = result.desired;
    return {
      ok: true,
      result,
      sources: { workbooks: of(workbooks), reports: of(reports), userAttributes: of(userAttributes) },
    };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
}

// The modules are loaded by now: the thread waits for the one request it answers, then ends.
parentPort?.once('message', (input: LoaderInput) => parentPort?.postMessage(load(input)));
