// The defaults a user can change (by a flag, a variable or wsc.yaml), in one
// place: the code that applies them and the texts that state them (--help,
// the variables' table in docs/commands.md, an invalid value's hint) read
// them here, so a changed default cannot leave a text saying the old one.

/** Seconds one HTTP response may take (`WSC_REQUEST_TIMEOUT`). */
export const REQUEST_TIMEOUT_S = 30;
/** Items per list page asked for (`--page-size`, `WSC_PAGE_SIZE`); the emulator's largest page. */
export const PAGE_SIZE = 500;
/** The largest page size `--page-size` and `WSC_PAGE_SIZE` take. */
export const PAGE_SIZE_MAX = 10_000;
/** Items of one list at most (`--max-list-items`, `WSC_MAX_LIST_ITEMS`). */
export const MAX_LIST_ITEMS = 200_000;
/**
 * Bytes of list answers one command reads in all (`--max-list-bytes`, `WSC_MAX_LIST_BYTES`): each page is
 * under the per-answer cap, but pages without end of large items would otherwise hold memory without end.
 */
export const MAX_LIST_BYTES = 512 * 1024 * 1024;
/** Requests in flight at once (`--concurrency`). */
export const CONCURRENCY = 8;
/** Retries of one retryable request (`--max-retries`). */
export const MAX_RETRIES = 6;
/** Deletes an apply may plan without `--max-deletes`: at least this many ... */
export const MAX_DELETES_FLOOR = 25;
/** ... or this share of the resources recorded for the bundle (one in five), whichever is larger. */
const MAX_DELETES_SHARE = 5;

/** `--max-deletes` when not given: the larger of the floor and a fifth of the resources recorded. */
export function defaultMaxDeletes(recorded: number): number {
  return Math.max(MAX_DELETES_FLOOR, Math.ceil(recorded / MAX_DELETES_SHARE));
}

/** Seconds `wsc doctor` may take in all (`WSC_DOCTOR_TIMEOUT`). */
export const DOCTOR_TIMEOUT_S = 45;

/**
 * Seconds the semantic check's model read may take, and its questions to Cube's planner as much again
 * (`WSC_SEMANTIC_TIMEOUT`): past either, a warning and the plan goes on.
 */
export const SEMANTIC_TIMEOUT_S = 10;

/** Characters the plan's layout map is drawn for when stdout is no terminal and `COLUMNS` is unset. */
export const MAP_WIDTH = 100;

/** `wsc emulator --port`. */
export const EMULATOR_PORT = 4010;
/** `wsc preview --port` (the page, on 127.0.0.1). */
export const PREVIEW_PORT = 4180;

/** A byte count as the flags take it: `512M`, `2G`, `64K`, or the number. */
export function sizeText(bytes: number): string {
  for (const [unit, size] of [
    ['G', 1024 ** 3],
    ['M', 1024 ** 2],
    ['K', 1024],
  ] as const)
    if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit}`;
  return String(bytes);
}
