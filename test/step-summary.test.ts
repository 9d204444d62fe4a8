// GITHUB_STEP_SUMMARY (src/step-summary.ts): the markdown added, redacted; a failure said, never thrown.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { addSecret, clearSecrets } from '../src/redact.js';
import { appendStepSummary } from '../src/step-summary.js';

const root = mkdtempSync(join(tmpdir(), 'wsc-summary-'));
afterAll(() => {
  clearSecrets();
  rmSync(root, { recursive: true, force: true });
});

describe('appendStepSummary', () => {
  test('adds to what the file holds, with a line ending, and redacts a token', async () => {
    const file = join(root, 'summary.md');
    writeFileSync(file, 'earlier step\n');
    addSecret('step-summary-secret-123');
    expect(await appendStepSummary(file, '## Plan step-summary-secret-123')).toBeUndefined();
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('earlier step\n## Plan ')).toBe(true);
    expect(text).not.toContain('step-summary-secret-123');
    expect(text.endsWith('\n')).toBe(true);
  });

  test('resolves to the error in words (and its code) when the file cannot be written', async () => {
    expect(await appendStepSummary(join(root, 'missing', 'summary.md'), 'x')).toBe(
      'no such file or directory (ENOENT)',
    );
    expect(await appendStepSummary(root, 'x')).toBe('is a directory (EISDIR)');
  });
});
