// Which V8 flags a run of wsc sets (src/v8-tuning.ts): the measured ones on
// the measured V8 only, never for the long-running emulator.
import { describe, expect, it } from 'vitest';
import { SHORT_RUN_V8_FLAGS, shortRunV8Flags } from '../src/v8-tuning.js';

describe('shortRunV8Flags', () => {
  it('sets the measured flags on V8 11.3 (Node 20) for every command but the emulator', () => {
    for (const command of ['plan', 'apply', 'validate', 'export', 'schema', undefined]) {
      expect(shortRunV8Flags('11.3.244.8-node.38', command)).toEqual(['--no-turbo-inlining', '--semi-space-growth-factor=16', '--no-turbo-loop-peeling', '--no-turbo-escape']);
    }
    expect(shortRunV8Flags('11.3.244.8-node.38', 'emulator')).toEqual([]);
    // WSC_V8_DEFAULTS: the way out.
    expect(shortRunV8Flags('11.3.244.8-node.38', 'plan', true)).toEqual([]);
  });

  it('leaves other V8 versions with their defaults (a flag they lack would print an error)', () => {
    for (const v of ['12.4.254.21-node.33', '13.6.233.10-node.24', '11.30.1', '10.2.154.26-node.36']) expect(shortRunV8Flags(v, 'plan')).toEqual([]);
  });

  it.runIf(process.versions.v8.startsWith('11.3.'))('names flags this V8 knows (an unknown one would make V8 print an error)', async () => {
    const { execFileSync } = await import('node:child_process');
    const known = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    for (const f of SHORT_RUN_V8_FLAGS) {
      const name = f.replace(/^--(no-)?/, '').replace(/=.*$/, '');
      expect(known, f).toContain(`--${name} `);
    }
  });
});
