// The preview's report cards carry the titles of the members a report names, from a data model given with
// `wsc preview --model` (the page shows them under "Members" in the card's details).
import { describe, expect, test } from 'vitest';
import { loadBundle } from '../../src/bundle/load.js';
import { indexModel } from '../../src/core/semantic/model-index.js';
import { defaultModel } from '../../src/emulator/index.js';
import { previewModel } from '../../src/preview/model.js';
import { root } from '../e2e/helpers/index.js';

describe('member titles on report cards', () => {
  test('with a model: each known member once with its title (a granularity named); without: none', async () => {
    const { desired, diagnostics } = await loadBundle(`${root}/fixtures/example`, {
      vars: { currency: 'USD', fiscalYearStartMonth: 2 },
      env: {},
      mayHoldUnknownRefs: false,
    });
    const withModel = previewModel(desired, diagnostics, indexModel(defaultModel()));
    const card = (m: typeof withModel, id: string) =>
      m.workbooks.flatMap((w) => w.grids[0]!.cards).find((c) => c.id === id)!;
    expect(card(withModel, 'arr-by-region').report!.members).toEqual([
      { name: 'subscriptions.arr', title: 'ARR' },
      { name: 'accounts.region', title: 'Region' },
      { name: 'subscriptions.billing_date', title: 'Billing date' },
    ]);
    // SQL: MEASURE() and columns of the tables read; `month` (an alias) is no member.
    expect(card(withModel, 'mrr-trend').report!.members!.map((m) => m.name)).toEqual([
      'subscriptions.billing_date',
      'accounts.region',
      'subscriptions.mrr',
    ]);
    expect(card(previewModel(desired, diagnostics), 'arr-by-region').report!.members).toBeUndefined();
  });
});
