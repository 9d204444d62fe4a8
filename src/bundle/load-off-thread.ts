// A large bundle is loaded on a worker thread (load-worker.ts), so that
// reading, parsing and checking thousands of files runs on another core
// while the main thread reads the deployment (commands/prepare.ts): on the
// main thread the two take turns, and the lists' cursor chains stall while a
// file is parsed (docs/performance.md). A small bundle is loaded here: a
// thread costs tens of milliseconds to start. The result is the same either
// way (test/bundle/load-off-thread.test.ts): the state crosses as plain data,
// and each resource's positions are read again from its file if a message
// ever needs them.
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { DesiredState } from '../core/model.js';
import { secretValues } from '../redact.js';
import { parseYaml, type ParsedDoc } from '../yaml/parse.js';
import { readBundleFileSync } from '../yaml/read.js';
import type { DocItem } from './checks.js';
import type { DocSource } from './desired.js';
import { withLazyLocate, type DocReader } from './locate.js';
import { findBundleFiles, loadFoundInTurns, type LoadOptions, type LoadResult } from './load.js';
import type { LoaderInput, LoaderOutput } from './load-worker.js';

/**
 * Files from which a bundle is loaded on a worker thread. Below, the thread's start (its own Node.js
 * environment, wsc's modules and their compilation again: 60 to 120 ms of the other core) costs more than
 * it saves: measured on an idle machine, `wsc plan` took 596 ms with the thread and 522 ms without at 1,100
 * files, 928 and 894 ms at 3,300, 1,773 and 2,021 ms at 11,000 (docs/performance.md).
 */
export const OFF_THREAD_FROM_FILES = 5000;

/**
 * Files from which plan and apply read the deployment while the bundle loads (commands/prepare.ts). Below, the
 * bundle loads in less time than a round trip or two (some 30 ms for 200 files), overlapping would save next to
 * nothing, and nothing is sent before the bundle is known valid: a mistyped bundle never reaches the network.
 */
export const READ_WHILE_LOADING_FROM_FILES = 200;

/** The bundle at `dir`, as loadBundle gives it; on a worker thread from `offThreadFrom` files. */
export function loadBundleOffThread(dir: string, opts: LoadOptions, offThreadFrom?: number): Promise<LoadResult> {
  return beginBundleLoad(dir, offThreadFrom).load(opts);
}

/**
 * A bundle's load begun before its options are known (they come from wsc.yaml): its files are found now and,
 * for a large bundle, the worker thread starts now, so that the thread's own start-up (a Node.js environment
 * and wsc's modules) runs on the other core while the main thread reads wsc.yaml and connects.
 */
export interface BundleLoad {
  /** Whether it loads on a worker thread. */
  offThread: Promise<boolean>;
  /** How many files it has. */
  fileCount: Promise<number>;
  /**
   * The bundle loaded with `opts` (once: the thread answers one request). `onItem`: told of each valid document
   * as it is loaded on this thread (not of those loaded on a worker thread).
   */
  load(opts: LoadOptions, onItem?: (item: DocItem) => void): Promise<LoadResult>;
  /** The run ends before `load`: the thread, if one was started, ends too. */
  cancel(): void;
}

/** `offThreadFrom`: the files from which the thread loads it (the tests give a small bundle one). */
export function beginBundleLoad(dir: string, offThreadFrom = OFF_THREAD_FROM_FILES): BundleLoad {
  const found = findBundleFiles(dir);
  const worker = found.then((f) => (f.files.length >= offThreadFrom ? startWorker() : undefined));
  worker.catch(() => undefined);
  return {
    offThread: worker.then((w) => w !== undefined),
    fileCount: found.then((f) => f.files.length),
    load: async (opts, onItem) => {
      const f = await found;
      const w = await worker;
      // On this thread, in turns: the deployment's reads go on meanwhile (commands/prepare.ts).
      if (!w) return loadFoundInTurns(f, opts, onItem);
      const out = await ask(w, { found: f, opts, secrets: secretValues() });
      if (!out.ok) throw new Error(`loading the bundle on a worker thread failed: ${out.message}`);
      relocateAll(dir, out.result.desired, out.sources);
      return out.result;
    },
    cancel: () => void worker.then((w) => w?.worker.terminate()).catch(() => undefined),
  };
}

/**
 * The worker's entry: built beside this module as dist/bundle-worker.js. Run from the TypeScript sources (the
 * tests), load-worker.ts through tsx's loader, which the thread registers first. Unreferenced until asked:
 * a thread waiting for work never keeps the process alive.
 */
interface Thread {
  worker: Worker;
  /** Why it ended, once it has (an error thrown as it started, or its exit code): `ask` then fails at once. */
  ended?: Error;
}

async function startWorker(): Promise<Thread> {
  // Loaded only for a bundle that uses it: most runs never start a thread.
  const { Worker } = await import('node:worker_threads');
  let worker: Worker;
  if (!import.meta.url.endsWith('.ts')) worker = new Worker(new URL('./bundle-worker.js', import.meta.url));
  else {
    const entry = JSON.stringify(new URL('./load-worker.ts', import.meta.url).href);
    const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${entry}); });`;
    worker = new Worker(boot, { eval: true });
  }
  worker.unref();
  const thread: Thread = { worker };
  // A thread that fails before it is asked (it could not start) is remembered: asking it then fails at once.
  worker.on('error', (e) => (thread.ended ??= e));
  worker.once(
    'exit',
    (code) => (thread.ended ??= new Error(`the bundle loader's worker thread ended (exit code ${code})`)),
  );
  return thread;
}

function ask(thread: Thread, input: LoaderInput): Promise<LoaderOutput> {
  const { worker } = thread;
  if (thread.ended) return Promise.reject(thread.ended);
  return new Promise((resolve, reject) => {
    let answered = false;
    worker.ref();
    worker.once('message', (m: LoaderOutput) => {
      answered = true;
      resolve(m);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the bundle loader's worker thread ended (exit code ${code}) without a result`));
    });
    worker.postMessage(input);
  });
}

/** Gives every resource its positions again, each file read and parsed at the first lookup into it. */
function relocateAll(dir: string, desired: DesiredState, sources: Record<keyof DesiredState, (DocSource | null)[]>) {
  const files = new Map<string, { text: string; docs: ParsedDoc[] } | null>();
  const readFile = (file: string) => {
    let got = files.get(file);
    if (got === undefined) {
      // As the loader read it (a byte-order mark is not part of the text); gone or changed since: no positions.
      const read = readBundleFileSync({ rel: file, abs: join(dir, file) });
      got = read.ok ? { text: read.text, docs: parseYaml(file, read.text).docs } : null;
      files.set(file, got);
    }
    return got;
  };
  const reader =
    (s: DocSource): DocReader =>
    () => {
      const f = readFile(s.file);
      const doc = f?.docs.find((d) => d.index === s.index);
      return f && doc ? { positions: doc.positions, text: f.text } : undefined;
    };
  for (const kind of ['workbooks', 'reports', 'userAttributes'] as const) {
    const list = desired[kind];
    for (let i = 0; i < list.length; i++) {
      const s = sources[kind][i];
      if (s) withLazyLocate(list[i]!, s.file, reader(s));
    }
  }
}
