// The emulator's data model: the built-in one is the committed example file (the documented format, the
// /v1/meta answer), it holds every member fixtures/example names, and a model file is checked when loaded.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadBundle } from '../../src/bundle/load.js';
import { bundleMembers, checkMembers } from '../../src/core/semantic/check.js';
import { indexModel } from '../../src/core/semantic/model-index.js';
import { createEmulator, defaultModel, metaAnswer } from '../../src/emulator/index.js';
import { signJwt } from '../../src/emulator/jwt.js';
import { root, tempDir } from '../e2e/helpers/index.js';

describe("the emulator's data model", () => {
  test('the built-in model is fixtures/models/example.json', () => {
    expect(JSON.parse(readFileSync(join(root, 'fixtures/models/example.json'), 'utf8'))).toEqual(defaultModel());
  });

  test('it holds every member fixtures/example names, all public (npm run try passes the check)', async () => {
    const { desired } = await loadBundle(join(root, 'fixtures/example'), {
      vars: { currency: 'USD', fiscalYearStartMonth: 2 },
      env: {},
      mayHoldUnknownRefs: false,
    });
    const { result, pending } = checkMembers(bundleMembers(desired), indexModel(metaAnswer(defaultModel())));
    expect(result.checked).toBeGreaterThan(40);
    // Every name listed; what is pending is only which way two cubes of one component join (Cube's to say).
    const unlisted = pending.flatMap((p) => p.uses).filter((u) => u.quiet !== true);
    expect([result.issues, unlisted]).toEqual([[], []]);
  });

  test('its planner (/v1/sql) takes every query of fixtures/example: joins where the reports need them', async () => {
    const { desired } = await loadBundle(join(root, 'fixtures/example'), {
      vars: { currency: 'USD', fiscalYearStartMonth: 2 },
      env: {},
      mayHoldUnknownRefs: false,
    });
    const emu = await createEmulator({ cubeApiSecret: 's' });
    try {
      const auth = { authorization: signJwt({}, 's', 60) };
      const asked: string[] = [];
      for (const r of desired.reports) {
        const { jsonQuery, sqlQuery } = r.fields as { jsonQuery?: string; sqlQuery?: string };
        const url = jsonQuery
          ? `sql?query=${encodeURIComponent(jsonQuery)}`
          : `sql?format=sql&query=${encodeURIComponent(sqlQuery!)}`;
        const res = await fetch(`${emu.url}/cubejs-api/v1/${url}`, { headers: auth });
        const body = (await res.json()) as { sql?: { status?: string } };
        expect([r.address, res.status, body.sql?.status ?? 'ok']).toEqual([r.address, 200, 'ok']);
        asked.push(jsonQuery ? 'json' : 'sql');
      }
      expect(asked.filter((k) => k === 'json').length).toBeGreaterThanOrEqual(4);
      expect(asked.filter((k) => k === 'sql').length).toBeGreaterThanOrEqual(4);
    } finally {
      await emu.close();
    }
  });

  test('a model file that is not a /v1/meta answer stops the start with its path', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'm.json'), '{"cubes": [{"title": "no name"}]}');
    await expect(createEmulator({ model: join(dir, 'm.json') })).rejects.toThrow(
      /m\.json: a data model is a \/v1\/meta answer/,
    );
    writeFileSync(join(dir, 'n.json'), '{');
    await expect(createEmulator({ model: join(dir, 'n.json') })).rejects.toThrow(
      /n\.json: the data model is not readable JSON/,
    );
  });
});
