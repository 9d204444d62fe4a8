// What a command wrote under a directory, read back whole for comparison.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under dir: relative path (with `/`) -> text. */
export function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else out[r] = readFileSync(join(dir, r), 'utf8');
    }
  };
  walk('');
  return out;
}
