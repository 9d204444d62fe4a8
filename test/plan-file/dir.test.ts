// The bundle directory of `wsc apply PLANFILE` (src/plan-file/dir.ts): --dir when given, else the plan's,
// inside the working directory by its name and by the real path it leads to.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { savedPlanDir } from '../../src/plan-file/dir.js';
import { errorOf } from '../core/builders.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'wsc-plan-dir-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const cwd = join(root, 'work');
const outside = join(root, 'outside');
mkdirSync(join(cwd, 'bundle'), { recursive: true });
mkdirSync(outside);
symlinkSync(outside, join(cwd, 'leads-out'));
symlinkSync(join(cwd, 'bundle'), join(cwd, 'stays-in'));

describe('savedPlanDir', () => {
  test('--dir given wins over the directory the plan names, even one outside', () => {
    expect(savedPlanDir('../elsewhere', { dir: 'mine', dirGiven: true }, cwd)).toBe(join(cwd, 'mine'));
  });

  test("the plan's directory, resolved in the working directory; --dir's default when it names none", () => {
    expect(savedPlanDir('bundle', { dir: '.' }, cwd)).toBe(join(cwd, 'bundle'));
    expect(savedPlanDir('.', { dir: 'x' }, cwd)).toBe(cwd);
    expect(savedPlanDir(undefined, { dir: 'x' }, cwd)).toBe(join(cwd, 'x'));
  });

  test('a link that stays inside is taken, and one missing is left for the command to report', () => {
    expect(savedPlanDir('stays-in', { dir: '.' }, cwd)).toBe(join(cwd, 'stays-in'));
    expect(savedPlanDir('not-there', { dir: '.' }, cwd)).toBe(join(cwd, 'not-there'));
  });

  test('a name that leads out is refused before the disk is asked', () => {
    expect(errorOf(() => savedPlanDir('../outside', { dir: '.' }, cwd)).code).toBe('plan_dir_outside');
    expect(errorOf(() => savedPlanDir(outside, { dir: '.' }, cwd)).code).toBe('plan_dir_outside');
  });

  test('a symbolic link that leads out is refused, naming where it leads', () => {
    const e = errorOf(() => savedPlanDir('leads-out', { dir: '.' }, cwd));
    expect(e.code).toBe('plan_dir_outside');
    expect(e.message).toContain(`which resolves to ${outside}, outside the directory wsc runs in`);
  });

  test('a sibling whose name starts like the working directory is outside', () => {
    mkdirSync(`${cwd}-twin`);
    symlinkSync(`${cwd}-twin`, join(cwd, 'twin'));
    expect(errorOf(() => savedPlanDir('twin', { dir: '.' }, cwd)).code).toBe('plan_dir_outside');
  });
});
