import { describe, expect, it } from 'vitest';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { driftEntries, emptyPlan, samplePlan } from './plan-fixture.js';

describe('renderPlanMarkdown', () => {
  it('a PR comment: summary table, collapsible diffs, safe for GitHub', () => {
    expect(renderPlanMarkdown(samplePlan())).toMatchInlineSnapshot(`
      "### wsc plan: <code>staging</code> (deployment 1)

      **Plan: 3 to create, 1 to update, 1 to adopt, 1 to publish.**

      | action | count |
      |---|---:|
      | create | 3 |
      | update | 1 |
      | adopt | 1 |
      | publish | 1 |
      | unchanged | 0 |
      | unmanaged (left alone) | 1 |

      \`\`\`diff
      + workbook/sales         workbooks/sales.yaml
      + report/newRep000001    reports/newRep000001.yaml
      ~ report/revqZ1x8Kp0a    reports/revqZ1x8Kp0a.yaml
      → report/uiMade000001    reports/uiMade000001.yaml
      + user-attribute/region  user-attributes/region.yaml
      \`\`\`

      <details><summary>+ <code>workbook/sales</code> will be created and published in <code>workbooks/sales.yaml</code></summary>

      \`\`\`diff
      + name: "Sales"
        meta.dashboardDraft:
      + title: "Sales"
      + widget w1 "New \`tick\` | pipe" added: CHART at 0,0 6×4, shows { $report: newRep000001 }
      + (publish the dashboard draft)
      \`\`\`

      \`\`\`text
      after (lg, 12 columns)
      +*w1--------------------------------+
      |                                   |
      |                                   |
      |                                   |
      +-----------------------------------+
      * changed
      \`\`\`

      </details>

      <details><summary>+ <code>report/newRep000001</code> will be created in <code>reports/newRep000001.yaml</code></summary>

      \`\`\`diff
      + source: "PLAYGROUND"
      + name: "New \`tick\` | pipe"
      + workbookId: { $workbook: sales }
      \`\`\`

      </details>

      <details><summary>~ <code>report/revqZ1x8Kp0a</code> will be updated in <code>reports/revqZ1x8Kp0a.yaml</code></summary>

      \`\`\`\`diff
      - name: "Revenue"
      + name: "Revenue (net)"
      @@ sqlQuery line 4 @@
        select
          sum(amount)
        from orders
      + where paid
        \`\`\`
        
      @@ jsonQuery: measures @@
        measures:
          - a
      +   - b
      \`\`\`\`

      </details>

      <details><summary>→ <code>report/uiMade000001</code> will be adopted (report id 90) in <code>reports/uiMade000001.yaml</code></summary>

      \`\`\`diff
      - publicId: "000000abcdef"
      + publicId: "uiMade000001"
      \`\`\`

      </details>

      <details><summary>+ <code>user-attribute/region</code> will be created in <code>user-attributes/region.yaml</code></summary>

      \`\`\`diff
      + type: "string"
      + displayName: "<b>Region</b>"
      \`\`\`

      </details>

      _0 unchanged, 1 unmanaged resource left alone._
      "
    `);
  });

  it('user content cannot break out of a fence nor inject HTML', () => {
    const md = renderPlanMarkdown(samplePlan());
    // The SQL holds a ``` line: its fence is longer.
    expect(md).toContain('````diff');
    // Outside fences, text is escaped.
    const p = { ...samplePlan(), environment: '<img src=x>|`x`' };
    expect(renderPlanMarkdown(p)).toContain(
      '### wsc plan: <code>&lt;img src=x&gt;&#124;&#96;x&#96;</code> (deployment 1)',
    );
  });

  it('stays within a comment budget by cutting details, never the list of addresses', () => {
    const full = renderPlanMarkdown(samplePlan());
    const cut = renderPlanMarkdown(samplePlan(), { maxChars: 1500 });
    expect(full.length).toBeGreaterThan(1500);
    expect(cut.length).toBeLessThanOrEqual(1500);
    expect(cut).toContain('+ user-attribute/region  user-attributes/region.yaml\n```\n');
    expect(cut).toContain('<code>workbook/sales</code>');
    expect(cut).not.toContain('<code>user-attribute/region</code>');
    expect(cut).toMatch(
      /_The details of 4 of 5 resources are left out to fit a comment \(all are named above\): see them with `wsc plan --output human --no-compact` or in the JSON plan \(`wsc plan --output json`\)._\n\n_0 unchanged, 1 unmanaged resource left alone._\n$/,
    );
  });

  it('drift lines count against the budget: a long list ends with how many are left out, the addresses stay', () => {
    const drift = driftEntries;
    const shown = (md: string) => md.split('\n').filter((l) => /^> +report\/drift\d+ title: /.test(l)).length;
    const few = renderPlanMarkdown({ ...samplePlan(), drift: drift(3) }, { compact: false });
    expect(shown(few)).toBe(3);
    expect(few).not.toContain('left out to fit a comment');

    for (const compact of [false, true]) {
      // The commands are the run's: its bundle, environment and what it planned.
      const run = { dir: 'dashboards', env: 'prod', target: [], prune: true };
      const md = renderPlanMarkdown({ ...samplePlan(), drift: drift(5000) }, { compact, run });
      expect(md.length).toBeLessThanOrEqual(60_000);
      const more =
        /> … and (\d+) more fields that differ, and the ways forward of 5000 more addresses: left out to fit a comment; see them all with `wsc drift --dir dashboards --env prod`, `wsc plan --prune --output human --dir dashboards --env prod` or in the JSON plan/.exec(
          md,
        );
      expect(more).not.toBeNull();
      expect(shown(md) + Number(more![1])).toBe(5000);
      expect(shown(md)).toBeGreaterThan(50);
      // every address the apply touches is still listed, and the footer ends the comment
      expect(md).toMatch(/\n\+ user-attribute\/region {2}user-attributes\/region\.yaml.*\n```\n/);
      expect(md.endsWith('_0 unchanged, 1 unmanaged resource left alone._\n')).toBe(true);
    }
  });

  it('an empty plan is the summary alone', () => {
    expect(renderPlanMarkdown(emptyPlan())).toMatchInlineSnapshot(`
      "### wsc plan: <code>staging</code> (deployment 1)

      **No changes. The deployment matches the bundle.**

      | action | count |
      |---|---:|
      | create | 0 |
      | update | 0 |
      | adopt | 0 |
      | publish | 0 |
      | unchanged | 1 |
      | unmanaged (left alone) | 1 |
      "
    `);
  });
});
