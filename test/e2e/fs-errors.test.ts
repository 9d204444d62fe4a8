// File-system errors are the user's to fix, never "a bug in wsc": the path,
// the cause in words and an exit code, with no stack trace. An existing
// --out that cannot be written to (sysfs refuses new entries even to root,
// so this runs as any user) stands for a read-only or full file system.
import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { e2eSuite, emulatorEnv, runCli, target, withEmulator } from './helpers/index.js';

e2eSuite();

describe('file-system errors are user errors', () => {
  test.skipIf(!existsSync('/sys/kernel'))(
    'export into an existing directory that refuses writes: exit 1, the path and the cause',
    async () => {
      await withEmulator({}, async (emu) => {
        const r = await runCli(['export', '--out', '/sys/kernel', ...target(emu)], { env: emulatorEnv });
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(
          /cannot write \/sys\/kernel\/workbooks: (operation not permitted \(EPERM\)|permission denied \(EACCES\)|read-only file system \(EROFS\))/,
        );
        expect(r.stderr).toContain('[export_write_failed]');
        expect(r.stderr).not.toMatch(/internal error|bug in wsc|\n\s+at /);
      });
    },
  );
});
