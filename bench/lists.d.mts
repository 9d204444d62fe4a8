// Types of bench/lists.mjs (a plain module: bench/honest.mjs runs without a build).
export function readLists(
  base: string,
  deployment: string,
  pageSize: string,
  token: string | undefined,
): Promise<[unknown[], unknown[], unknown[]]>;
