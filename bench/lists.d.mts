// Types of bench/lists.mjs (a plain module: bench/honest.mjs runs without a build).
type Lists = Promise<[unknown[], unknown[], unknown[]]>;
type Get = (url: string, headers: Record<string, string>) => Promise<{ status: number; text: string }>;
export function readListsWith(
  get: Get,
  base: string,
  deployment: string,
  pageSize: string,
  token: string | undefined,
): Lists;
export function readLists(base: string, deployment: string, pageSize: string, token: string | undefined): Lists;
